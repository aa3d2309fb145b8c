import ConnTestSupport
@testable import ConnRepl
import Testing

/// Seed 001: show the warning when NOT connected AND NOT acknowledged; the acknowledgement resets
/// when the connection returns and on a manual refresh.
@Suite("REPL warning rule (seed 001)")
struct WarningRuleTests {
    @Test("nothing is shown before the first verdict, nor while connected")
    func quietWhileConnectedOrUnknown() {
        var rule = WarningRule()
        #expect(!rule.showsWarning)
        let appeared1 = rule.apply(.connection(true))
        #expect(!appeared1)
        #expect(!rule.showsWarning)
        let appeared2 = rule.apply(.refresh)
        #expect(!appeared2)
        let appeared3 = rule.apply(.acknowledge)
        #expect(!appeared3)
        #expect(!rule.showsWarning)
    }

    @Test("losing the connection shows the warning once; staying offline does not show it again")
    func showsOnLoss() {
        var rule = WarningRule()
        rule.apply(.connection(true))
        let appeared4 = rule.apply(.connection(false))
        #expect(appeared4)
        #expect(rule.showsWarning)
        let appeared5 = rule.apply(.connection(false))
        #expect(!appeared5)
        #expect(rule.showsWarning)
    }

    @Test("the first verdict offline warns")
    func firstVerdictOffline() {
        var rule = WarningRule()
        let appeared6 = rule.apply(.connection(false))
        #expect(appeared6)
    }

    @Test("acknowledged: hidden while offline, across further offline verdicts")
    func acknowledgement() {
        var rule = WarningRule()
        rule.apply(.connection(false))
        let appeared7 = rule.apply(.acknowledge)
        #expect(!appeared7)
        #expect(!rule.showsWarning)
        let appeared8 = rule.apply(.connection(false))
        #expect(!appeared8)
        #expect(!rule.showsWarning)
    }

    @Test("the connection returning resets the acknowledgement: the next loss warns again")
    func reconnectResets() {
        var rule = WarningRule()
        rule.apply(.connection(false))
        rule.apply(.acknowledge)
        let appeared9 = rule.apply(.connection(true))
        #expect(!appeared9)
        #expect(!rule.acknowledged)
        let appeared10 = rule.apply(.connection(false))
        #expect(appeared10)
    }

    @Test("a manual refresh while offline resets the acknowledgement and warns again")
    func refreshResets() {
        var rule = WarningRule()
        rule.apply(.connection(false))
        rule.apply(.acknowledge)
        let appeared11 = rule.apply(.refresh)
        #expect(appeared11)
        #expect(rule.showsWarning)
    }

    @Test("a refresh while connected changes nothing visible; an acknowledgement while connected does not carry over to the next loss")
    func connectedEdgeCases() {
        var rule = WarningRule()
        rule.apply(.connection(true))
        rule.apply(.acknowledge)
        #expect(!rule.showsWarning)
        // Seed 001 resets the acknowledgement whenever there is a connection.
        rule.apply(.connection(true))
        let appeared12 = rule.apply(.connection(false))
        #expect(appeared12)
    }

    /// Property: after any sequence, the warning shows exactly when the last verdict was
    /// "not connected" and no acknowledgement came after the last reset.
    @Test("random sequences agree with the rule written out (5,000 sequences)")
    func property() {
        var generator = SeededGenerator(seed: 7)
        let events: [WarningRule.Event] = [.connection(true), .connection(false), .acknowledge, .refresh]
        for _ in 0..<5_000 {
            var rule = WarningRule()
            var connected: Bool?
            var acknowledged = false
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let event = events.randomElement(using: &generator)!
                let wasShown = rule.showsWarning
                let appeared = rule.apply(event)
                switch event {
                case .connection(let value):
                    connected = value
                    if value { acknowledged = false }
                case .acknowledge: acknowledged = true
                case .refresh: acknowledged = false
                }
                let expected = connected == false && !acknowledged
                #expect(rule.showsWarning == expected)
                #expect(appeared == (expected && !wasShown))
            }
        }
    }
}
