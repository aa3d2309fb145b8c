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
        /// The record's fields as canonical JSON (keys in schema order), for the cache and to
        /// tell an unchanged record from an updated one.
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
            result.append(Record(email: email, raw: canonicalJSON(values)))
        }
        return result
    }

    /// Built by hand: Foundation's sorted-keys serialisation was half the cost of a 100,000-record
    /// fetch.
    static func canonicalJSON(_ values: [String: String]) -> String {
        var output = "{"
        for (index, field) in fields.enumerated() {
            if index > 0 { output += "," }
            output += "\"" + field + "\":\""
            escape(values[field] ?? "", into: &output)
            output += "\""
        }
        return output + "}"
    }

    static func escape(_ text: String, into output: inout String) {
        // Most fields need no escaping at all: append them whole.
        if !text.utf8.contains(where: { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 }) {
            output += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                output += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: output.unicodeScalars.append(scalar)
            }
        }
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
