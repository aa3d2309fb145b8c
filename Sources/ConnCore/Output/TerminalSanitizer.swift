/// Makes text that came from the network safe to print on a terminal.
///
/// A subject line or a server message could carry escape sequences that retitle the window,
/// rewrite the screen, hide text or (with some terminals) inject input. This removes every
/// escape sequence (CSI, OSC, DCS, SOS, PM, APC and two-character ESC sequences), every C0 and
/// C1 control character except tab and newline, the bidirectional controls that can make text read
/// differently from what it is (embeddings, overrides, isolates, the LRM/RLM/ALM marks), and the
/// Unicode line and paragraph separators that some terminals and most viewers break lines at.
/// Removed control characters other than escape sequences are shown as U+FFFD, and NUL as U+2400
/// (␀), so the reader can see that something was there and where a field did not end.
///
/// Every path that prints text from outside (the network, a file, the kernel) goes through it:
/// the printer does so for every diagnostic, renderers for each field they print.
public enum TerminalSanitizer {
    public static func sanitize(_ text: String, keepNewlines: Bool = true) -> String {
        // Printable ASCII (with tabs, and newlines where kept) has nothing to remove: most text
        // is, and rebuilding it scalar by scalar was a third of printing 1,000 probe results.
        if text.utf8.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 || ($0 == 0x0A && keepNewlines) }) { return text }
        var output = String.UnicodeScalarView()
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar.value {
            case 0x1B:  // ESC: drop the whole sequence
                skipEscapeSequence(&scalars)
            case 0x9B:  // C1 CSI
                skipControlSequence(&scalars)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:  // C1 DCS, SOS, OSC, PM, APC: a string up to ST
                skipString(&scalars)
            case 0x09:
                output.append(scalar)
            case 0x0A:
                output.append(keepNewlines ? scalar : " ")
            case 0x00:
                output.append("\u{2400}")
            default:
                output.append(isControl(scalar.value) ? "\u{FFFD}" : scalar)
            }
        }
        return String(output)
    }

    /// Whether a terminal acts on the scalar `value` rather than only showing it: the C0 and C1
    /// controls, DEL, the bidi controls and the line and paragraph separators. What `sanitize`
    /// removes, and what JSON output writes as `\u` escapes (`JSONOutput`).
    public static func isControl(_ value: UInt32) -> Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true  // bidi embeddings, overrides, isolates
        case 0x200E, 0x200F, 0x061C: true  // LRM, RLM, ALM
        case 0x2028, 0x2029: true  // line and paragraph separators
        default: false
        }
    }

    /// After ESC: `[` starts a control sequence, `]` `P` `X` `^` `_` a string ended by ST or BEL,
    /// anything else is a two-character sequence (possibly with intermediate bytes).
    private static func skipEscapeSequence(_ scalars: inout Substring.UnicodeScalarView) {
        guard let next = scalars.popFirst() else { return }
        switch next {
        case "[": skipControlSequence(&scalars)
        case "]", "P", "X", "^", "_": skipString(&scalars)
        default:
            // Intermediate bytes 0x20–0x2F, then one final byte.
            var current = next
            while (0x20...0x2F).contains(current.value), let following = scalars.popFirst() {
                current = following
            }
        }
    }

    /// Parameters and intermediates, up to and including a final byte in 0x40–0x7E.
    private static func skipControlSequence(_ scalars: inout Substring.UnicodeScalarView) {
        while let scalar = scalars.popFirst() {
            if (0x40...0x7E).contains(scalar.value) { return }
            if scalar.value < 0x20 || scalar.value > 0x7E { return }  // malformed: stop here
        }
    }

    /// Up to BEL, ESC \ or the C1 ST (0x9C).
    private static func skipString(_ scalars: inout Substring.UnicodeScalarView) {
        while let scalar = scalars.popFirst() {
            switch scalar.value {
            case 0x07, 0x9C: return
            case 0x1B:
                if scalars.first == "\\" { scalars.removeFirst() }
                return
            default: continue
            }
        }
    }
}
