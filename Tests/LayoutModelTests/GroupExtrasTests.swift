import JSON
import XCTest

@testable import LayoutModel

/// Groups' options name shared pairs; pairs no group names are dropped as the list grows,
/// and every group still reads back its own.
final class GroupExtrasTests: XCTestCase {
    func testEachGroupReadsBackItsPairThroughSharingAndRepacking() {
        var extras = GroupExtras()
        var expected: [EntryRef: JSON] = [:]
        func pair(_ k: Int) -> GroupExtras.Pair { (.array([.string("o\(k / 3)")]), k % 2 == 0 ? nil : .object([("m", .number(Double(k)))])) }
        for k in 0..<400 {
            let e = EntryRef(k)
            extras[e] = pair(k)
            expected[e] = .array([pair(k).options ?? .null, pair(k).metrics ?? .null])
            if k % 4 != 0 {  // most groups go again
                extras[EntryRef(k - 1)] = nil
                expected[EntryRef(k - 1)] = nil
            }
        }
        for k in 0..<400 {
            let got = extras[EntryRef(k)].map { JSON.array([$0.options ?? .null, $0.metrics ?? .null]) }
            XCTAssertEqual(got, expected[EntryRef(k)], "group \(k)")
        }
        XCTAssertFalse(extras.isEmpty)
    }
}
