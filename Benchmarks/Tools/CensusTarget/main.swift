// CensusTarget: a process for the census benchmark (Benchmarks/Scripts/census.py). It holds
// 1,000,000 live objects (or as many as its argument says) of four alternating classes (one
// generic, one a subclass), about 200 MB of heap per million, prints `ready`, and waits until
// its standard input closes. A heartbeat thread notes the longest time between two of its beats
// (every 100 µs): a line `gap` on standard input prints it in milliseconds and starts anew, so
// that the script measures how long a census held the process.

#if canImport(Glibc)
import Glibc
#endif

typealias Twenty = (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
let zeros: Twenty = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

final class Row { var values = zeros }
final class Cell<Value> {
    var value: Value
    var padding = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    init(_ value: Value) { self.value = value }
}
final class Item {
    var name = "item"
    var padding = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}
class Base { var base = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0) }
final class Derived: Base { var derived = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0) }

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1_000_000 : 1_000_000
var objects: [AnyObject] = []
objects.reserveCapacity(count)
for index in 0..<count {
    switch index % 4 {
    case 0: objects.append(Row())
    case 1: objects.append(Cell(Double(index)))
    case 2: objects.append(Item())
    default: objects.append(Derived())
    }
}
Heartbeat.start()

print("ready", getpid())
fflush(nil)
while let line = readLine() {
    guard line == "gap" else { continue }
    print(Heartbeat.takeLongestGap())
    fflush(nil)
}
withExtendedLifetime(objects) {}
