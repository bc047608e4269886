import JSON

/// Guides as guide views pinned where UIKit puts them: safe areas, scroll views' frame and
/// content guides, iOS 7–10's top and bottom layout guides.
extension RootBuilder {
    /// A view's guides as guide views: the safe area (on a root the screen's; on another view
    /// what of the root's it overlaps, as UIKit insets a subview's), a scroll view's frame guide
    /// (its bounds) and content guide (its content area, sized by what its subviews'
    /// constraints say).
    mutating func guides(_ e: XMLElement, owner: String, safe: Device.Insets) {
        for g in e.children where g.name == "viewLayoutGuide" {
            guard let gid = g["id"] else { continue }
            emitted.places[gid] = SourcePlace(g)
            switch g["key"] {
            case "safeArea":
                addGuide(gid, in: owner, top: safe.top, left: safe.left, bottom: safe.bottom, right: safe.right)
            case "frameLayoutGuide":
                addGuide(gid, in: owner, top: 0, left: 0, bottom: 0, right: 0)
            case "contentLayoutGuide":
                addGuide(gid, in: owner, top: 0, left: 0, bottom: nil, right: nil)
                areas.contentGuide[owner] = gid
            default:
                emitted.note("guide \(gid) (\(g["key"] ?? "?")) of \(owner) is not laid out", id: gid, at: g)
            }
        }
        if e.name == "scrollView" || e.name == "tableView" || e.name == "collectionView" || e.name == "textView" {
            areas.scrollers.insert(owner)
        }
    }

    /// A guide view in `owner`, its edges inset from the owner's (nil: that edge is free).
    mutating func addGuide(_ gid: String, in owner: String, top: Double, left: Double, bottom: Double?, right: Double?) {
        guideView(gid, in: owner)
        if let o = stored.rects[owner], let bottom, let right {
            stored.rects[gid] = Frame(x: o.x + left, y: o.y + top, width: o.width - left - right, height: o.height - top - bottom)
        }
        pin(gid, "top", to: owner, top)
        pin(gid, "left", to: owner, left)
        if let bottom { pin(gid, "bottom", to: owner, -bottom) }
        if let right { pin(gid, "right", to: owner, -right) }
    }

    private mutating func guideView(_ gid: String, in owner: String) {
        tree.known.insert(gid)
        if emitted.places[gid] == nil { emitted.places[gid] = emitted.places[owner] }
        emitted.views.append(object([("id", .string(gid)), ("parent", .string(owner)), ("kind", .string("guide"))]))
    }

    /// `guide.attribute == owner.attribute + constant` (a constant alone without an owner),
    /// named `guide.attribute`.
    private mutating func pin(_ guide: String, _ attribute: String, to owner: String?, _ constant: Double = 0) {
        var members: [(String, JSON)] = [
            ("id", .string("\(guide).\(attribute)")), ("first", .string("\(guide).\(attribute)")), ("relation", .string("=="))
        ]
        if let owner { members.append(("second", .string("\(owner).\(attribute)"))) }
        members.append(("constant", number(constant)))
        emitted.constraints.append(object(members))
        emitted.places["\(guide).\(attribute)"] = emitted.places[guide]
    }

    /// iOS 7–10's top and bottom layout guides: zero-width strips at the root's left, under
    /// the status and top bars and over the bottom bar.
    mutating func legacyGuides(rootID: String, safe: Device.Insets) {
        guard let list = controller?.child("layoutGuides") else { return }
        for g in list.children where g.name == "viewControllerLayoutGuide" {
            guard let gid = g["id"] else { continue }
            emitted.places[gid] = SourcePlace(g)
            guideView(gid, in: rootID)
            let (edge, size) = g["type"] == "bottom" ? ("bottom", safe.bottom) : ("top", safe.top)
            if let r = stored.rects[rootID] { stored.rects[gid] = Frame(x: 0, y: edge == "top" ? 0 : r.height - size, width: 0, height: size) }
            pin(gid, edge, to: rootID)
            pin(gid, "left", to: rootID)
            pin(gid, "height", to: nil, size)
            pin(gid, "width", to: nil)
        }
    }
}
