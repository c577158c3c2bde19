// CensusBench: one measurement per process, for Benchmarks/Scripts/census.py.
//
//   CensusBench census PID       RemoteProcess.read + census(): the whole of `instances --pid`
//   CensusBench floor PID        the same heap mappings read with process_vm_readv alone
//   CensusBench listing PID      `metadata-inspect conformances --pid PID --json`
//   CensusBench files PATH...    `metadata-inspect conformances PATH... --json`
//   CensusBench images PID       the process's image paths, one per line (not timed)
//   CensusBench ranges PID       the heap ranges a census walks, `START-END` in hexadecimal
//   CensusBench leaks PID        the figures of `leaks --pid PID`: blocks, edges, graph bytes
//   CensusBench run ARGUMENT...  `metadata-inspect ARGUMENT...`, its output printed: the whole
//                                process is timed by the script, exec to exit
//
// Each prints one JSON object: the milliseconds taken and what was found.

import Foundation
import MetadataInspector
@_spi(Benchmarks) import RuntimeMetadata

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else {
    FileHandle.standardError.write(Data("usage: CensusBench census|floor|listing|images PID, files PATH...\n".utf8))
    exit(2)
}
let pid = arguments.count > 1 ? Int32(arguments[1]) ?? 0 : 0
switch mode {
case "census":
    var rows: [ProcessCensus.Row] = []
    let time = try milliseconds { rows = try RemoteProcess.read(pid).census().rows }
    let counts = Dictionary(uniqueKeysWithValues: rows.map { ($0.typeName, $0.count) })
    let objects = rows.reduce(0) { $0 + $1.count }
    let data = try JSONSerialization.data(
        withJSONObject: ["ms": time, "objects": objects, "counts": counts] as [String: Any],
        options: [.sortedKeys]
    )
    print(String(decoding: data, as: UTF8.self))
case "floor":
    var bytes = 0
    let time = milliseconds { bytes = RemoteProcess.heapReadFloor(pid) ?? -1 }
    print("{\"ms\": \(time), \"bytes\": \(bytes)}")
case "listing":
    var outcome: Inspector.Outcome?
    let time = milliseconds { outcome = Inspector.run(["conformances", "--pid", "\(pid)", "--json"]) }
    print("{\"ms\": \(time), \"status\": \(outcome?.status ?? -1), \"bytes\": \(outcome?.output.utf8.count ?? 0)}")
case "files":
    var outcome: Inspector.Outcome?
    let time = milliseconds { outcome = Inspector.run(["conformances"] + arguments.dropFirst() + ["--json"]) }
    print("{\"ms\": \(time), \"status\": \(outcome?.status ?? -1), \"bytes\": \(outcome?.output.utf8.count ?? 0)}")
case "images":
    for image in try RemoteProcess.read(pid).images { print(image.path) }
case "ranges":
    for range in RemoteProcess.heapReadRanges(pid) ?? [] {
        print(String(range.lowerBound, radix: 16) + "-" + String(range.upperBound, radix: 16))
    }
case "leaks":
    // The search's own figures (not timed): its graph's blocks, edges and memory.
    let leaks = try RemoteProcess.read(pid).leaks()
    print(
        "{\"blocks\": \(leaks.liveBlockCount), \"edges\": \(leaks.edgeCount), \"graph\": \(leaks.graphBytes), "
            + "\"leaked\": \(leaks.rows.count)}"
    )
case "run":
    let outcome = Inspector.run(Array(arguments.dropFirst()))
    FileHandle.standardOutput.write(Data(outcome.output.utf8))
    FileHandle.standardError.write(Data(outcome.error.utf8))
    exit(outcome.status)
default:
    FileHandle.standardError.write(Data("unknown mode \(mode)\n".utf8))
    exit(2)
}
