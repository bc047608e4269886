#if canImport(Glibc)
    import Glibc
#endif
import JSON
import LayoutModel

/// The same drag without the network: set-constants on one `LayoutSession`, each timed
/// through its `ChangeResult` and the wire encoding of its frames. Separates the model's
/// share of a stream update's latency from the socket's.
func runInProcess(document: [UInt8], seconds: Double, mid: Int) -> [Double] {
    let session = try! LayoutSession(document: try! JSONParser.parse(document))
    var latencies: [Double] = []
    latencies.reserveCapacity(1 << 20)
    let end = now() + seconds
    var step = 0
    while now() < end {
        step += 1
        let body = Array(dragMessage(mid: mid, step: step).utf8)
        let t0 = now()
        let r = try! session.setConstants(try! JSONParser.parse(body))
        precondition(r.frames.count == 3, "a drag moves the avatar, its title and its subtitle")
        latencies.append((now() - t0) * 1e6)
    }
    return latencies
}
