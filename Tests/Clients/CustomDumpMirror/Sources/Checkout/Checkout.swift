// Checkout.swift
//
// Nothing to build: the target exists so that customDump is resolved and checked out.

import CustomDump

/// Names customDump's diff, so that the dependency is used.
let diffOfCustomDump: (Int, Int) -> String? = { CustomDump.diff($0, $1) }
