/// "Did you mean …?" for mistyped names: the closest candidate by edit distance, if close enough.
public enum Suggestions {
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        return candidates
            .map { ($0, editDistance(word.lowercased(), $0.lowercased())) }
            .filter { $0.1 <= limit }
            .min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance, two rows at a time.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
