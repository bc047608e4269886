import JSON

/// A view's layout margins as UIKit gives them on Xcode's canvas.
extension RootBuilder {
    /// Layout margins: as the document sets them, else UIKit's (a controller's root,
    /// `isControllersRoot`: the system minimum beside its safe area; a table cell's content view by the Xcode that
    /// wrote it, `Device.tableCellContentMargins`, 8 at the trailing side beside an accessory,
    /// `accessoryTrailingMargin`; any other view 8).
    /// `preservesSuperviewLayoutMargins`: at least what of the superview's margins reaches
    /// over the view's edge; and a view's margins are inset by the safe area it overlaps
    /// (`insetsLayoutMarginsFromSafeArea`). nil: the engine's default (8, no safe area).
    mutating func margins(
        _ e: XMLElement, id: String, parentID: String?, frame: Frame, parentSize: Size, rootWidth width: Double, safe: Device.Insets
    ) -> JSON? {
        func n(_ x: XMLElement, _ k: String) -> Double { x.number(k) ?? 0 }
        let isRoot = parentID == nil
        var m: Device.Insets
        if let insets = e.child("edgeInsets", key: "layoutMargins") {
            m = Device.Insets(top: n(insets, "top"), left: n(insets, "left"), bottom: n(insets, "bottom"), right: n(insets, "right"))
        } else if let insets = e.child("directionalEdgeInsets", key: "directionalLayoutMargins") {
            m = Device.Insets(top: n(insets, "top"), left: n(insets, "leading"), bottom: n(insets, "bottom"), right: n(insets, "trailing"))
        } else if isRoot && isControllersRoot {
            let side = Self.controllersRootSideMargin(width: width)
            m = Device.Insets(top: 0, left: side, bottom: 0, right: side)
        } else if isRoot && kind == .cell && controller?.name == "tableViewCell" {
            m = Device.tableCellContentMargins(width: sceneWidth ?? width, xcode: xcode, inControllersTable: inControllersTable)
            m.right = Self.accessoryTrailingMargin(cell: controller) ?? m.right
        } else {
            m = Device.Insets(top: 8, left: 8, bottom: 8, right: 8)
        }
        // A document without safe areas (iOS 7–10's layout guides) has margins no bar insets:
        // its roots' top and bottom margins are 0 under the status bar and a navigation bar.
        // IBCorpus development half, every root whose views pin to its top or bottom margin in
        // such a document with views not misplaced: 4 repositories (RadioHopeUA/iOS-HopeFM,
        // Xcode 7; VisarutL/FriendForFare, wh1pch81n/DismissAllWithoutSideEffects and
        // artsy/eidolon, Xcode 8), 9 views more agree, none fewer.
        if e["insetsLayoutMarginsFromSafeArea"] != "NO" && context.usesSafeAreas {
            m = Device.Insets(top: m.top + safe.top, left: m.left + safe.left, bottom: m.bottom + safe.bottom, right: m.right + safe.right)
        }
        if e["preservesSuperviewLayoutMargins"] == "YES", let parentID, let p = stored.margins[parentID] {
            m.top = max(m.top, p.top - frame.y)
            m.left = max(m.left, p.left - frame.x)
            m.bottom = max(m.bottom, p.bottom - (parentSize.height - frame.y - frame.height))
            m.right = max(m.right, p.right - (parentSize.width - frame.x - frame.width))
        }
        stored.margins[id] = m
        if m == Device.Insets(top: 8, left: 8, bottom: 8, right: 8) { return nil }
        return object([("top", number(m.top)), ("left", number(m.left)), ("bottom", number(m.bottom)), ("right", number(m.right))])
    }

    /// A cell with an accessory (a disclosure indicator, checkmark or detail button, or an
    /// accessory view): its content view ends before the accessory, and its trailing margin is
    /// UIView's 8, not the cell's side margin. IBCorpus development half: muzicaed/sl-smart
    /// (Xcode 10.0, disclosure indicators on a 375-point phone: views on the trailing margin
    /// stored 8 in from the content view's edge, 14 views) and openHPI/xikolo-ios (Xcode 13,
    /// 1 view), none the other way; validation half 10,518 → 10,525 views, 358 → 361
    /// documents.
    static func accessoryTrailingMargin(cell: XMLElement?) -> Double? {
        guard let cell, cell["accessoryType"] != nil || cell.children.contains(where: { $0["key"] == "accessoryView" }) else { return nil }
        return 8
    }

    /// A controller's root's side margins: UIKit's system minimum, 16 below 400 points (the
    /// 390- and 393-point phones too, where a table's cells take 20:
    /// `Device.systemMinimumMargin`), 20 from 400. IBCorpus development half:
    /// azimmmmismail/GroSelfie (393, the template's 32700.99.1234, 11 views),
    /// NavidSwift/FavoriteAthlete (390, Xcode 12.5), dpgranger8/FavoriteAthletes (393, Xcode
    /// 14.0) and ZFAbox/FavoriteAthlete (390, Xcode 15), 5 views each: 26 views, 4 documents,
    /// none the other way; validation half 11,146 → 11,183 views, 404 → 411 documents.
    static func controllersRootSideMargin(width: Double) -> Double { width < 400 ? 16 : 20 }

    /// A controller's root view: a scene's, or a xib's top-level view that is its File's
    /// Owner's `view` (`FoundRoot.isOwnersView`), which the controller loads from the nib and
    /// UIKit gives its system minimum margins (16 or 20 at the sides, none above and below
    /// beyond the safe area), not a plain view's 8. IBCorpus development half:
    /// Automattic/pocket-casts-ios (a 1024-point controller's view, Xcode 13: a view on the
    /// bottom margin stored at the safe area's bottom), none the other way; validation half
    /// 7846 → 7848 views, 252 → 253 documents.
    var isControllersRoot: Bool { kind == .scene || isOwnersView }
}
