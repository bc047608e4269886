import JSON

/// A stack view's arrangement as layoutd's stack spec.
extension RootBuilder {
    func stackSpec(_ e: XMLElement, arranged: [String]) -> JSON {
        var members: [(String, JSON)] = [("axis", .string(e["axis"] == "vertical" ? "vertical" : "horizontal"))]
        if let d = e["distribution"] { members.append(("distribution", .string(d))) }
        if let a = e["alignment"] { members.append(("alignment", .string(a == "baseline" ? "lastBaseline" : a))) }
        if e["spacingType"] == "standard" {
            members.append(("spacing", .string("standard")))
        } else if let s = e.number("spacing") {
            members.append(("spacing", number(s)))
        }
        members.append(("arrangedSubviews", .array(arranged.map { .string($0) })))
        if e["layoutMarginsRelativeArrangement"] == "YES" || Self.arrangesInStoredMargins(e) {
            members.append(("layoutMarginsRelativeArrangement", .bool(true)))
        }
        if e["baselineRelativeArrangement"] == "YES" && e["axis"] == "vertical" {
            members.append(("baselineRelativeArrangement", .bool(true)))
        }
        return object(members)
    }

    /// A stack whose layout margins the document sets arranges its views inside them on
    /// Xcode's canvas, though IB writes no `layoutMarginsRelativeArrangement`: every such stack
    /// of the IBCorpus development half does (5 stacks of 3 documents, 2 repositories: arranged
    /// views 10 in from a stack's sides, 8 from a vertical stack's top and bottom).
    static func arrangesInStoredMargins(_ e: XMLElement) -> Bool {
        e.child("edgeInsets", key: "layoutMargins") != nil || e.child("directionalEdgeInsets", key: "directionalLayoutMargins") != nil
    }
}
