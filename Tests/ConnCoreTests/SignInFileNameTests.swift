import ConnCore
import Foundation
import Testing

/// The file a profile's sign-in is kept in: the name must stay what earlier versions wrote, or a
/// signed-in profile would find no token after an upgrade.
@Suite("sign-in file names")
struct SignInFileNameTests {
    /// The name as conn first computed it (Foundation's CharacterSet and String(format:)).
    static func earlierName(_ profile: String) -> String {
        let safe = profile.unicodeScalars.map { scalar -> String in
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || "._-".unicodeScalars.contains(scalar)
                ? String(scalar) : String(format: "%%%02X", scalar.value)
        }.joined()
        return (safe.hasPrefix(".") ? "%2E" + safe.dropFirst() : safe) + ".json"
    }

    @Test("letters, digits and ._- kept, the rest %XX by scalar value, a leading dot escaped: the same names as before")
    func sameNamesAsBefore() {
        let paths = ConnPaths(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/ann"])
        for profile in ["default", "Work-2.staging_x", "a b", "../up", ".hidden", "é", "日本", "😀", "tab\there", "%41", "", "Z9"] {
            #expect(SignIn.file(paths: paths, profile: profile) == "/data/conn/sessions/" + Self.earlierName(profile), "\(profile)")
        }
        #expect(SignIn.file(paths: paths, profile: "a b/é😀") == "/data/conn/sessions/a%20b%2F%E9%1F600.json")
    }
}
