/// The one-line constraint syntax: `a.x == b.y * 2 + 8 @750`, `icon.width == 2 * icon.height`,
/// `title.width >= 100`. Errors name the character position.
enum ExpressionSyntax {
    struct Failure: Error { var position: Int; var message: String }

    private enum Token: Equatable {
        case item(String), number(Double), op(String)
    }

    static func parse(_ text: String) throws(Failure) -> AtomicConstraint {
        let tokens = try tokenize(Array(text))
        var i = 0
        func at(_ k: Int) -> (Token, Int)? { k < tokens.count ? tokens[k] : nil }
        func fail(_ m: String) -> Failure { Failure(position: at(i)?.1 ?? text.count, message: m) }

        guard case .item(let lhs)? = at(i)?.0 else { throw fail("expected view.attribute at the start") }
        let first: Anchor
        switch Anchor.parse(lhs) { case .success(let a): first = a; case .failure(let m): throw Failure(position: 0, message: m.message) }
        i += 1
        guard case .op(let r)? = at(i)?.0, let relation = Relation(rawValue: r) else { throw fail("expected ==, <= or >=") }
        i += 1

        var second: Anchor? = nil
        var multiplier = 1.0
        var constant = 0.0
        var priority = 1000.0
        var sign = 1.0
        var expectTerm = true
        while let (t, pos) = at(i) {
            if case .op("@") = t {
                i += 1
                guard case .number(let p)? = at(i)?.0 else { throw fail("expected a priority after @") }
                guard p >= 1 && p <= 1000 else { throw fail("a priority is from 1 to 1000") }
                priority = p
                i += 1
                guard at(i) == nil else { throw fail("nothing may follow the priority") }
                break
            }
            if !expectTerm {
                guard case .op(let o) = t, o == "+" || o == "-" else { throw Failure(position: pos, message: "expected + or - between terms") }
                sign = o == "-" ? -1 : 1
                expectTerm = true
                i += 1
                continue
            }
            if case .op("-") = t { sign = -sign; i += 1; continue }
            // term := number | item | number * item | item * number | item / number
            var coefficient = sign
            var item: String? = nil
            if case .number(let n) = t {
                coefficient *= n
                i += 1
                if case .op("*")? = at(i)?.0, case .item(let s)? = at(i + 1)?.0 { item = s; i += 2 }
            } else if case .item(let s) = t {
                item = s
                i += 1
            } else {
                throw Failure(position: pos, message: "expected a number or view.attribute")
            }
            if item != nil {
                if case .op("*")? = at(i)?.0, case .number(let n)? = at(i + 1)?.0 { coefficient *= n; i += 2 }
                else if case .op("/")? = at(i)?.0, case .number(let n)? = at(i + 1)?.0 {
                    guard n != 0 else { throw Failure(position: at(i + 1)!.1, message: "division by zero") }
                    coefficient /= n; i += 2
                }
            }
            if let item {
                guard second == nil else { throw Failure(position: pos, message: "only one view.attribute may stand on the right") }
                switch Anchor.parse(item) { case .success(let a): second = a; case .failure(let m): throw Failure(position: pos, message: m.message) }
                multiplier = coefficient
            } else {
                constant += coefficient
            }
            sign = 1
            expectTerm = false
        }
        if expectTerm { throw fail("expected a number or view.attribute after \(relation.rawValue)") }
        return AtomicConstraint(first: first, relation: relation, second: second, multiplier: multiplier, constant: constant, priority: priority)
    }

    private static func tokenize(_ c: [Character]) throws(Failure) -> [(Token, Int)] {
        var out: [(Token, Int)] = []
        var i = 0
        while i < c.count {
            let ch = c[i]
            if ch == " " || ch == "\t" { i += 1; continue }
            let start = i
            if ch.isNumber || (ch == "." && i + 1 < c.count && c[i + 1].isNumber) {
                while i < c.count && (c[i].isNumber || c[i] == ".") { i += 1 }
                if i < c.count && (c[i] == "e" || c[i] == "E") {
                    i += 1
                    if i < c.count && (c[i] == "+" || c[i] == "-") { i += 1 }
                    while i < c.count && c[i].isNumber { i += 1 }
                }
                guard let v = Double(String(c[start..<i])) else { throw Failure(position: start, message: "invalid number") }
                out.append((.number(v), start))
            } else if ch.isLetter || ch == "_" {
                while i < c.count && (c[i].isLetter || c[i].isNumber || c[i] == "_" || c[i] == "." || (c[i] == "-" && i + 1 < c.count && (c[i + 1].isLetter || c[i + 1].isNumber))) { i += 1 }
                out.append((.item(String(c[start..<i])), start))
            } else if "=<>".contains(ch) {
                guard i + 1 < c.count && c[i + 1] == "=" else { throw Failure(position: i, message: "expected ==, <= or >=") }
                out.append((.op(String(c[i...i + 1])), start))
                i += 2
            } else if "+-*/@".contains(ch) {
                out.append((.op(String(ch)), start))
                i += 1
            } else {
                throw Failure(position: i, message: "unexpected character '\(ch)'")
            }
        }
        return out
    }
}
