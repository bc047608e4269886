import InterfaceBuilder
public import JSON

extension Finding {
    /// `{kind, severity, message, line, column, ids, root?, size?, file?}`: a finding in
    /// `POST /v1/ib/layout`'s answer and `layoutd check --format json`.
    public var json: JSON {
        var members: [(key: String, value: JSON)] = []
        if let file { members.append(("file", .string(file))) }
        members += [
            ("line", .number(Double(place.line))), ("column", .number(Double(place.column))), ("severity", .string(severity.rawValue)),
            ("kind", .string(kind.rawValue))
        ]
        if let root { members.append(("root", .string(root))) }
        if let size { members.append(("size", .string(size))) }
        members += [("ids", .array(ids.map { .string($0) })), ("message", .string(message))]
        return .object(members)
    }
}
