// main.swift
//
// metadata-inspect: prints what the Swift runtime knows about the types, protocols and
// conformances of the images loaded in this process. All logic is in MetadataInspector.

import Foundation
import MetadataInspector

let outcome = Inspector.run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(outcome.output.utf8))
FileHandle.standardError.write(Data(outcome.error.utf8))
exit(outcome.status)
