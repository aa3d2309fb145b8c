import ConnCore
import ConnProtocol
import Foundation

/// Reads an inbox document strictly enough to trust it and leniently where the schema allows:
/// every field of seed 003's schema is a string and none is declared required, so a missing
/// field reads as "" — except `uid`, without which a message cannot be kept. A wrong type, a
/// truncated body or an HTML page fails the whole fetch, naming the record and the field.
public enum InboxDocumentReader {
    static let fields = ["uid", "from", "to", "subject", "text", "responseToUid", "dateTime"]

    public struct Record: Sendable, Equatable {
        public var email: Email
        /// The record as it came, for the cache.
        public var raw: String
    }

    public static func read(_ data: Data, source: String) throws -> [Record] {
        func bad(_ what: String) -> ConnError {
            ConnError.dataError("badInbox", "the inbox from \(source) \(what)", hint: "The cache was left as it was.")
        }
        let prefix = String(decoding: data.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if prefix.hasPrefix("<") {
            throw bad("is an HTML page, not JSON (a captive portal or a login page?)")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw bad(data.isEmpty ? "is empty" : "is not valid JSON (truncated?): \((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)")")
        }
        guard let document = object as? [String: Any] else { throw bad("is not a JSON object with an \"inbox\" array") }
        guard let list = document["inbox"] else { throw bad("has no \"inbox\" field") }
        guard let records = list as? [Any] else { throw bad("has an \"inbox\" that is not an array") }
        var result: [Record] = []
        result.reserveCapacity(records.count)
        for (index, item) in records.enumerated() {
            guard let record = item as? [String: Any] else { throw bad("has inbox[\(index)] that is not an object") }
            var values: [String: String] = [:]
            for field in fields {
                switch record[field] {
                case nil, is NSNull: values[field] = ""
                case let text as String: values[field] = text
                case let other:
                    throw bad("has inbox[\(index)].\(field) that is \(describe(other)), not a string")
                }
            }
            guard let uid = values["uid"], !uid.isEmpty else { throw bad("has inbox[\(index)] without a uid") }
            let email = Email(uid: uid, from: values["from"]!, to: values["to"]!, subject: values["subject"]!, text: values["text"]!,
                              responseToUid: values["responseToUid"]!, dateTime: values["dateTime"]!)
            let raw = (try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? ""
            result.append(Record(email: email, raw: raw))
        }
        return result
    }

    private static func describe(_ value: Any) -> String {
        switch value {
        case is NSNumber: "a number"
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        default: "\(type(of: value))"
        }
    }
}
