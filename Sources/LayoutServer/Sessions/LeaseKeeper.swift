import CheckedNumbers
import Foundation
import HTTPTransport
import Logging
import Prometheus
import SessionStorage
import Synchronization

/// This replica's side of a shared store's session leases: one owner per session among the
/// replicas. A session is claimed when it is made or restored here, its lease renewed while
/// it is in memory, handed over when another replica asks for it (the proxy sends the
/// session there now), and released when it leaves memory or the process stops, each time
/// only after its writes are durable (a release before them would let the next owner load
/// a store without them, and then fence them out).
///
/// A box knows until when its lease holds (the renewal's start plus nine tenths of a
/// lease, on this machine's monotonic clock; the database times the lease from later, on
/// its own clock): past that, a request first confirms the lease with the store. Writes
/// are fenced by the store in any case, so a replica paused past its lease never writes
/// over the new owner; the local time keeps it from answering reads from a stale copy.
final class LeaseKeeper: Sendable {
    let leasing: any SessionLeasing
    private let writer: StoreWriter
    private let metrics: ServerMetrics
    private let logger: Logger
    /// Leases of boxes that left memory, released once what they queued is written.
    private let releases = Mutex<[(session: String, epoch: Int)]>([])
    /// Signalled when leases are queued for release (or the keeper stops): the thread
    /// releases them at once, not at its next renewal (a quarter of a lease away).
    private let wake = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(true)
    private let knownNanos: UInt64
    private let renewEveryNanos: UInt64

    init(leasing: any SessionLeasing, writer: StoreWriter, metrics: ServerMetrics, logger: Logger) {
        self.leasing = leasing
        self.writer = writer
        self.metrics = metrics
        self.logger = logger
        knownNanos = UInt64(leasing.leaseMilliseconds) * 900_000
        renewEveryNanos = UInt64(leasing.leaseMilliseconds) * 250_000
    }

    /// How long a lease claimed or renewed at `start` is known to hold.
    func knownUntil(from start: UInt64) -> UInt64 { start + knownNanos }

    // MARK: Claims

    /// A new session's id: its lease, or 409 when the id is taken.
    func claimNew(_ id: String) throws(Problem) -> (epoch: Int, until: UInt64) {
        let t0 = monotonicNanos()
        switch try claim(id, creating: true) {
        case .acquired(let epoch): return (epoch, knownUntil(from: t0))
        default: throw Problem(409, "a session with id \(id) exists")
        }
    }

    /// A stored session's lease: nil when none is stored; 503 while another replica holds it.
    func claimStored(_ id: String) throws(Problem) -> (epoch: Int, until: UInt64)? {
        let t0 = monotonicNanos()
        switch try claim(id, creating: false) {
        case .acquired(let epoch): return (epoch, knownUntil(from: t0))
        case .missing, .taken: return nil
        case .ownedElsewhere(let owner, let ms):
            metrics.leasesRefused.increment()
            // Asked for: the owner hands it over at its next renewal, a quarter of a lease away.
            let seconds = max(1, (min(ms, leasing.leaseMilliseconds) + 999) / 1000)
            var problem = Problem(
                503, "session \(id) is served by replica \(owner) now; it moves here within \(ms) ms: retry",
                headers: [("Retry-After", "\(seconds)")])
            problem.movedElsewhere = true
            throw problem
        }
    }

    private func claim(_ id: String, creating: Bool) throws(Problem) -> LeaseClaim {
        do throws(StorageError) {
            let outcome = try leasing.claim(id, creating: creating)
            if case .acquired(let epoch) = outcome {
                metrics.leasesTaken.increment()
                logger.debug("lease taken", metadata: ["session": "\(id)", "epoch": "\(epoch)"])
            }
            return outcome
        } catch {
            logger.error("cannot take a session's lease", metadata: ["session": "\(id)", "error": "\(error)"])
            throw Problem(503, "the session store cannot be reached to take session \(id)", headers: [("Retry-After", "1")])
        }
    }

    /// A lease claimed for a session that was never written (it could not be held): given up now.
    func abandon(_ id: String, epoch: Int) {
        _ = try? leasing.release([(id, epoch)])
    }

    /// A box whose known lease time ran out: renewed now if it is still this replica's.
    func confirm(_ box: SessionBox) -> Bool {
        let t0 = monotonicNanos()
        guard let renewed = try? leasing.renew([(box.id, box.epoch)]), renewed.held.contains(box.id), !renewed.wanted.contains(box.id) else {
            return false
        }
        box.leaseUntil.store(knownUntil(from: t0), ordering: .relaxed)
        return true
    }

    // MARK: Renewal, hand-over, release

    func attach(to store: SessionStore) {
        store.leaseCheck = { [self] box in confirm(box) }
        store.onRetire = { [self] leases in
            releases.withLock { $0 += leases }
            wake.signal()
        }
    }

    /// Renews the leases of the boxes in memory four times a lease, and releases those of
    /// boxes that left memory as they leave, on a thread of its own.
    func start(_ store: SessionStore) {
        running.store(true, ordering: .relaxed)
        stopped.store(false, ordering: .relaxed)
        let thread = Thread { [self] in
            var renewal: UInt64 = 0
            while running.load(ordering: .relaxed) {
                let now = monotonicNanos()
                if now >= renewal {
                    renewal = now + renewEveryNanos
                    tick(store)
                } else {
                    releasePending()
                }
                let left = renewal > monotonicNanos() ? renewal - monotonicNanos() : 0
                _ = wake.wait(timeout: .now() + .nanoseconds(Int(min(left, 1_000_000_000))))
            }
            stopped.store(true, ordering: .relaxed)
        }
        thread.name = "layoutd-leases"
        thread.start()
    }

    private func tick(_ store: SessionStore) {
        let boxes = store.residentBoxes()
        if !boxes.isEmpty {
            let t0 = monotonicNanos()
            do throws(StorageError) {
                let renewed = try leasing.renew(boxes.map { ($0.id, $0.epoch) })
                var lost: [SessionBox] = [], wanted: [SessionBox] = []
                for b in boxes {
                    if !renewed.held.contains(b.id) { lost.append(b); continue }
                    b.leaseUntil.store(knownUntil(from: t0), ordering: .relaxed)
                    if renewed.wanted.contains(b.id) { wanted.append(b) }
                }
                if !lost.isEmpty {
                    // Taken while this replica could not renew (paused, cut off): the store fences
                    // what it still had queued; the copies in memory go.
                    metrics.leasesLost.increment(by: lost.count)
                    logger.warning("leases lost to other replicas", metadata: ["sessions": "\(lost.count)"])
                    store.retire(lost)
                }
                if !wanted.isEmpty {
                    metrics.leasesHandedOver.increment(by: wanted.count)
                    logger.info("sessions handed over on request", metadata: ["sessions": "\(wanted.count)"])
                    store.retire(wanted)
                }
            } catch {
                logger.error("cannot renew leases: sessions answer 503 once their leases run out", metadata: ["error": "\(error)"])
            }
        }
        releasePending()
    }

    /// Releases the leases of boxes that left memory, once what they queued is durable.
    private func releasePending() {
        let due = releases.withLock { q in
            defer { q = [] }; return q
        }
        guard !due.isEmpty else { return }
        writer.flush()
        do throws(StorageError) { try leasing.release(due) } catch {
            // They expire instead, a lease from now.
            logger.warning("cannot release leases", metadata: ["sessions": "\(due.count)", "error": "\(error)"])
        }
    }

    /// SIGTERM, after the writer wrote everything: every lease held is released, so that a
    /// rolling update moves sessions at once rather than after a lease.
    func stop(_ store: SessionStore) {
        running.store(false, ordering: .relaxed)
        wake.signal()
        while !stopped.load(ordering: .relaxed) { usleep(1000) }
        let held =
            store.residentBoxes().map { ($0.id, $0.epoch) }
            + releases.withLock { q in
                defer { q = [] }; return q
            }
        do throws(StorageError) { try leasing.release(held) } catch {
            logger.warning("cannot release leases at exit: they expire instead", metadata: ["sessions": "\(held.count)", "error": "\(error)"])
        }
        logger.info("leases released", metadata: ["sessions": "\(held.count)"])
    }
}
