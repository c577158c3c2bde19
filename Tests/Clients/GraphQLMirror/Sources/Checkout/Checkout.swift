// Checkout.swift
//
// A target that depends on GraphQL, so that resolving this package checks it out; run.py
// builds a copy of GraphQL's own package, not this one.

import GraphQL

/// GraphQL's version this client was written for.
let graphQLVersion = "4.3.0"
