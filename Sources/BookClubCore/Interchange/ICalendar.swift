#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A club's meetings as an iCalendar (RFC 5545) file that calendar applications import.
///
/// Each meeting has a stable UID (its id and the club's), so importing twice updates rather than
/// duplicates. Times are written in UTC; lines end with CRLF and are folded at 75 octets.
public enum ICalendar {
    /// A member of a shared club, as an event's attendee (or its organizer, the club's founder).
    public struct Attendee: Equatable, Sendable {
        public enum Reply: String, Sendable {
            case accepted = "ACCEPTED"
            case declined = "DECLINED"
            case tentative = "TENTATIVE"
            case unanswered = "NEEDS-ACTION"
        }

        public var name: String
        /// Their key's fingerprint: the attendee's address is `urn:bookclub:member:` and it.
        public var fingerprint: String
        public var reply: Reply

        public init(name: String, fingerprint: String, reply: Reply) {
            (self.name, self.fingerprint, self.reply) = (name, fingerprint, reply)
        }

        var address: String { "urn:bookclub:member:" + fingerprint }
    }

    /// - Parameters:
    ///   - organizer, attendees: a shared club's founder, and its members with their replies by
    ///     meeting. With them, the calendar is a group's (no `METHOD:PUBLISH`, which allows no attendees).
    public static func render(
        club: Club, books: Library, now: Date, duration: TimeInterval = 2 * 3600, organizer: Attendee? = nil,
        attendees: [Meeting.ID: [Attendee]] = [:]
    ) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bookclub//bookclub//EN", "CALSCALE:GREGORIAN",
        ]
        if organizer == nil { lines.append("METHOD:PUBLISH") }
        lines.append("X-WR-CALNAME:" + escape(club.name))
        for meeting in club.meetings {
            let book = meeting.bookID.flatMap { books[id: $0] }
            var summary = club.name
            if let book { summary += ": " + book.title }
            if let target = meeting.target { summary += " to " + target.text(in: book) }
            lines += [
                "BEGIN:VEVENT",
                "UID:\(meeting.id)-\(club.id)@bookclub",
                "DTSTAMP:" + DateText.stamp(now),
                "DTSTART:" + DateText.stamp(meeting.date),
                "DTEND:" + DateText.stamp(meeting.date.addingTimeInterval(duration)),
                "SUMMARY:" + escape(summary),
            ]
            if let place = meeting.place { lines.append("LOCATION:" + escape(place)) }
            if let description = club.description { lines.append("DESCRIPTION:" + escape(description)) }
            if let organizer {
                lines.append("ORGANIZER;CN=" + parameter(organizer.name) + ":" + organizer.address)
                for attendee in attendees[meeting.id] ?? [] {
                    lines.append(
                        "ATTENDEE;CN=\(parameter(attendee.name));ROLE=REQ-PARTICIPANT;PARTSTAT=\(attendee.reply.rawValue):"
                            + attendee.address)
                }
            }
            lines.append("END:VEVENT")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// TEXT escaping: backslash, semicolon, comma and line breaks; other control characters dropped.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n": result += "\\n"
            case _ where scalar.properties.generalCategory == .control: continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A parameter value, always quoted, with RFC 6868's escapes for a caret, a quote and a line break;
    /// other control characters dropped.
    static func parameter(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "^": result += "^^"
            case "\"": result += "^'"
            case "\n": result += "^n"
            case _ where scalar.properties.generalCategory == .control: continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Folds a content line into lines of at most 75 octets, continuation lines starting with a space,
    /// never splitting a UTF-8 sequence.
    static func fold(_ line: String) -> String {
        var folded: [String] = []
        var current = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            let limit = folded.isEmpty ? 75 : 74
            if octets + size > limit {
                folded.append(current)
                current = ""
                octets = 0
            }
            current.append(character)
            octets += size
        }
        folded.append(current)
        return folded.joined(separator: "\r\n ")
    }
}
