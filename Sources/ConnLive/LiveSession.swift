import ConnClock
import ConnCore
import ConnInbox
import ConnOutbox
import ConnProbe
import ConnRequest
import Foundation
import Logging
import Synchronization

/// The live runtime: one monitor (looks, the kernel's notifications, the link to the back end),
/// and, where asked for, background delivery of the outbox, inbox sync, the stored clock offset
/// and the metrics they feed — wired to each other here, once. `conn watch`, `conn agent` and
/// `conn repl` only consume its events: watch prints them, the agent keeps its status from them,
/// the REPL renders its prompt.
///
/// The rules that tie the parts together:
/// - delivery runs while the server is reachable, at once (ignoring conn's backoff) when it
///   becomes reachable (the baseline counts);
/// - the inbox is synced when the server becomes reachable, then every sync interval while it is;
/// - each ping/pong's clock estimate is stored (for `clock-offset --convert`) and served as a metric.
public final class LiveSession: Sendable {
    public enum Event: Sendable, Equatable {
        /// A look: the engine's decision (with an event when something changed) and the state
        /// reported since.
        case looked(WatchEngine.Decision, reported: NetworkState?)
        /// The way out changed while online, seen in the routing table before a look: a `path`
        /// event, and the state reported since.
        case path(WatchEvent, reported: NetworkState?)
        /// A state of the live link (while enabled).
        case link(ConnectionState)
        /// The link was switched on or off (seed 002's isConnectionEnabled).
        case linkEnabled(Bool)
        /// A delivery pass that attempted, expired or failed something.
        case outbox(OutboxFlushWorker.Pass)
        /// An inbox sync ended.
        case synced(InboxSyncResult)
        /// The chrony feed's condition changed (sending, withholding, chronyd gone, no estimate).
        case chrony(ChronyFeed.News)
        /// The `sync:` resources were refreshed (with the inbox).
        case resourcesSynced(ResourceSyncResult)
    }

    /// Background delivery of one outbox to the server's messages resource.
    public struct Delivery: Sendable {
        public var store: OutboxStore
        public var url: URL
        public init(store: OutboxStore, url: URL) {
            self.store = store
            self.url = url
        }
    }

    /// Inbox sync into the database's cache, every `interval` while online (and on becoming online).
    public struct InboxSync: Sendable {
        public var url: URL
        public var database: LocalDatabase
        public var interval: Duration
        public init(url: URL, database: LocalDatabase, interval: Duration) {
            self.url = url
            self.database = database
            self.interval = interval
        }
    }

    /// What a session is made of; only `check` is required.
    public struct Parts: Sendable {
        public var check: ConnectivityCheck
        public var interval: Duration
        public var grace: Duration
        public var link: BackEndLink?
        public var linkEnabled = true
        public var delivery: Delivery?
        public var sync: InboxSync?
        /// The `sync:` resources, refreshed with the inbox (on becoming online, then every
        /// `sync.interval`).
        public var resources: ResourceSync?
        /// Sends the link's clock estimates (and measured ones when the link gives none) to chronyd.
        public var chrony: ChronyFeed?
        /// The local database: each clock estimate of the link is stored there (for
        /// `clock-offset --convert`), and its inbox cache is counted in the metrics (nil: neither).
        public var database: LocalDatabase?
        public var metrics: MonitorMetrics?
        /// Give back the code pages only start-up touched after the second look (a process that
        /// runs for hours; not twice in one process).
        public var releasesStartupPages = false
        /// Hears every look's per-target results (`conn top`'s latencies, the agent's status).
        public var onResults: (@Sendable ([ProbeResult]) -> Void)?

        public init(check: ConnectivityCheck, interval: Duration, grace: Duration, link: BackEndLink? = nil) {
            self.check = check
            self.interval = interval
            self.grace = grace
            self.link = link
        }
    }

    private final class Shared: Sendable {
        let online = Mutex(false)
        /// The link's latest few clock estimates (offset, bound; ms), newest last: a state is
        /// worded with the one it came from, though more pongs may have come before it is printed.
        let recentLinkClocks = Mutex<[WatchEvent.LinkClock]>([])
    }

    private let shared: Shared
    /// The live link's latest clock estimate, unrounded, with its error bound (ms); nil before one.
    public var linkClock: WatchEvent.LinkClock? { shared.recentLinkClocks.withLock { $0.last } }

    /// The estimate `state`'s whole milliseconds came from (the newest that rounds to them),
    /// else the latest: a state reported during the opening pings is printed after more came.
    public func linkClock(for state: ConnectionState?) -> WatchEvent.LinkClock? {
        guard let offset = state?.backEndTimeOffsetMs else { return linkClock }
        return shared.recentLinkClocks.withLock { $0 }.last { Int($0.offsetMs.rounded()) == offset } ?? linkClock
    }

    private let monitor: ConnectivityMonitor
    private let delivery: OutboxFlushWorker?
    private let sync: InboxSyncWorker?
    private let resources: ResourceSyncWorker?
    private let syncTimer: Task<Void, Never>?
    private let pageRelease: Task<Void, Never>?
    private let metrics: MonitorMetrics?
    private let chrony: ChronyFeed?

    /// Whether this session delivers the outbox.
    public var delivers: Bool { delivery != nil }
    /// Whether the kernel's notifications (rtnetlink) could be subscribed to; without them the
    /// session only polls.
    public var hasKernelNotifications: Bool { monitor.hasKernelNotifications }

    /// Starts the session; `onEvent` hears everything, in order per source, from the session's tasks.
    public init(_ parts: Parts, configuration: ConnConfiguration, logger: Logger, onEvent: @escaping @Sendable (Event) -> Void) {
        let metrics = parts.metrics
        let shared = Shared()
        self.shared = shared
        self.metrics = metrics

        var worker: OutboxFlushWorker?
        if let settings = parts.delivery {
            metrics?.delivers()
            metrics?.count(outbox: settings.store, inboxMessages: parts.database.map { Self.inboxCounter($0, inbox: configuration.backEnd?.url(for: .inbox)) })
            worker = OutboxFlushWorker(store: settings.store, url: settings.url, configuration: configuration, logger: logger,
                                         recheck: parts.interval) { pass in
                metrics?.delivered(pass.tally)
                onEvent(.outbox(pass))
            }
        }
        let delivery = worker
        self.delivery = delivery
        let releasesStartupPages = parts.releasesStartupPages
        let sync = parts.sync.map { sync in
            InboxSyncWorker(fetcher: InboxFetcher(url: sync.url, database: sync.database), configuration: configuration, logger: logger) { result in
                if result.ok { metrics?.update { $0.lastSync = result.at } }
                onEvent(.synced(result))
            }
        }
        self.sync = sync
        let resources = parts.resources.flatMap { $0.urls.isEmpty ? nil : $0 }.map { resourceSync in
            ResourceSyncWorker(sync: resourceSync, configuration: configuration, logger: logger) { onEvent(.resourcesSynced($0)) }
        }
        self.resources = resources
        if releasesStartupPages { HeapTrim.limitArenas() }
        pageRelease = releasesStartupPages ? Task {
            for delay in StartupPages.releaseTimes {
                try? await Task.sleep(for: delay)
                if Task.isCancelled { return }
                StartupPages.release()
            }
            // Then the heap's free pages, for as long as the session runs (see HeapTrim).
            while !Task.isCancelled {
                try? await Task.sleep(for: HeapTrim.interval)
                if Task.isCancelled { return }
                HeapTrim.trim()
            }
        } : nil
        syncTimer = parts.sync.flatMap { settings in
            guard sync != nil || resources != nil, settings.interval > .zero else { return nil }
            return Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: settings.interval)
                    if shared.online.withLock({ $0 }) {
                        sync?.request()
                        resources?.request()
                    }
                }
            }
        }

        var link = parts.link
        if let store = parts.database, let url = link?.url.absoluteString {
            metrics?.update { snapshot in
                if snapshot.clockOffsetMs == nil, let server = URL(string: url), let stored = try? StoredOffset.load(from: store, for: server) {
                    (snapshot.clockOffsetMs, snapshot.clockUncertaintyMs, snapshot.clockMeasuredAt) = (stored.offsetMs, stored.uncertaintyMs, stored.measuredAt)
                }
            }
            link?.onSample = { estimate in
                let stored = StoredOffset(offsetMs: estimate.offsetMS, uncertaintyMs: estimate.uncertaintyMS, method: "ws",
                                          source: url, measuredAt: Date())
                try? stored.save(to: store)
                metrics?.update { ($0.clockOffsetMs, $0.clockUncertaintyMs, $0.clockMeasuredAt) = (stored.offsetMs, stored.uncertaintyMs, stored.measuredAt) }
            }
        } else if let metrics {
            link?.onSample = { estimate in
                metrics.update { ($0.clockOffsetMs, $0.clockUncertaintyMs, $0.clockMeasuredAt) = (estimate.offsetMS, estimate.uncertaintyMS, Date()) }
            }
        }
        let recorded = link?.onSample
        let chrony = parts.chrony
        self.chrony = chrony
        link?.onSample = { estimate in
            let clock = WatchEvent.LinkClock(offsetMs: estimate.offsetMS, boundMs: estimate.uncertaintyMS)
            shared.recentLinkClocks.withLock { recent in
                recent.append(clock)
                if recent.count > 16 { recent.removeFirst(recent.count - 16) }
            }
            recorded?(estimate)
            chrony?.offer(estimate, method: "ws")
        }
        if let chrony {
            metrics?.update { if $0.chronySamples == nil { $0.chronySamples = [:] } }
            chrony.start(onSample: { sample in metrics?.chronySample(sample.outcome.rawValue, offsetMs: sample.offsetMs, at: sample.at) },
                         onNews: { onEvent(.chrony($0)) })
        }
        let linkConnected: Bool? = link == nil ? nil : false
        metrics?.update { $0.linkConnected = linkConnected }

        var onSnapshot: (@Sendable (ConnectivityCheck.Snapshot) -> Void)?
        let onResults = parts.onResults
        if metrics != nil || onResults != nil {
            onSnapshot = { snapshot in
                metrics?.probed(snapshot.results)
                onResults?(snapshot.results)
            }
        }
        let handle: @Sendable (ConnectivityMonitor.Event) -> Void = { event in
            switch event {
            case .looked(let decision, let reported):
                metrics?.looked(decision, reported: reported)
                let online = reported?.state == .online
                shared.online.withLock { $0 = online }
                // Becoming online (or starting online): conn's backoff was earned while the
                // server could not be reached, so it no longer applies; the inbox may have grown.
                let becameOnline = decision.event?.saysServerOnline ?? false
                delivery?.serverReachable(online, justBecome: becameOnline)
                if becameOnline {
                    sync?.request()
                    resources?.request()
                }
                event.live.map(onEvent)
            case .link(let state):
                metrics?.update { $0.linkConnected = state.isConnected }
                chrony?.linkChanged(state)
                event.live.map(onEvent)
            case .path(_, let reported):
                metrics?.update { $0.network = reported }
                event.live.map(onEvent)
            case .linkEnabled:
                event.live.map(onEvent)
            case .serverAnswered:
                // Deliver now: the look that follows (and will say so) asks for one more pass,
                // folded into this one if it is still running.
                delivery?.serverReachable(true, justBecome: true)
            case .kernelNotificationsLost:
                // Never silent: the look that follows re-reads links, addresses and routes in full.
                logger.warning("kernel notifications were lost (ENOBUFS: more changes at once than the socket holds); reading the network's state again in full")
            }
        }
        monitor = ConnectivityMonitor(check: parts.check, engine: WatchEngine(interval: parts.interval, grace: parts.grace), link: link,
                                      linkEnabled: parts.linkEnabled, onSnapshot: onSnapshot, onEvent: handle)
    }

    /// Counts the messages of the configured server's inbox copy (for a scrape); 0 before its
    /// first fetch.
    private static func inboxCounter(_ database: LocalDatabase, inbox: URL?) -> @Sendable () -> Int? {
        guard let inbox else { return { nil } }
        let cache = InboxCache(database: database)
        return { try? cache.messageCount(inboxAt: inbox.absoluteString) }
    }

    /// Looks at once; returns once the look has been reported.
    public func refresh() async {
        await monitor.refresh()
    }

    /// Seed 002's isConnectionEnabled.
    public func setLinkEnabled(_ enabled: Bool) {
        monitor.setLinkEnabled(enabled)
    }

    /// Asks for a delivery pass (a message was queued); conn's backoff still applies.
    public func requestDelivery() {
        delivery?.request(ignoringBackoff: false)
    }

    /// Messages whose sender could not deliver them: tried now while the server is reachable.
    public func handOver(_ ids: [String]) {
        delivery?.handOver(ids)
    }

    /// Stops looking, holding the link and syncing; lets a delivery pass in flight record what
    /// its requests came to (a cancelled request is a retry with the same key).
    public func stop() async {
        chrony?.stop()
        syncTimer?.cancel()
        pageRelease?.cancel()
        monitor.stop()
        await delivery?.stop()
        await sync?.stop()
        await resources?.stop()
        metrics?.count(with: nil)
    }
}

extension ConnectivityMonitor.Event {
    fileprivate var live: LiveSession.Event? {
        switch self {
        case .looked(let decision, let reported): .looked(decision, reported: reported)
        case .path(let event, let reported): .path(event, reported: reported)
        case .link(let state): .link(state)
        case .linkEnabled(let enabled): .linkEnabled(enabled)
        case .kernelNotificationsLost: nil  // the session logs it
        case .serverAnswered: nil  // the look that follows tells
        }
    }
}
