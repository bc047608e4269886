/// The bars Xcode's canvas shows over a controller, inferred as Xcode infers them: a
/// navigation bar when the controller is in a navigation controller's stack (its root, or
/// shown from a controller in it), a tab bar when it is one of a tab bar controller's (or in
/// the stack of one that is); a controller's simulated metrics say otherwise where set.
struct Bars {
    /// Top bar height by controller id (44, or 96 with large titles), bottom bar height.
    var top: [String: Double] = [:]
    var bottom: [String: Double] = [:]
    /// Controllers under an opaque navigation bar (`translucent="NO"`): their root starts below it.
    var opaqueTop: Set<String> = []
    /// Controllers whose simulated status bar is None, set or inferred (`inferredWithoutStatusBar`).
    var noStatusBar: Set<String> = []

    init(objects: [[XMLElement]], xcode: ToolsVersion) {
        // By id, and in document order: a controller in two navigation stacks (one in a
        // popover, say) takes the first stack's bar, whatever the dictionaries' order this run
        // (tiana890/NakedChinese answered either bar from one run to the next).
        var controllers: [String: XMLElement] = [:], order: [String] = []
        for list in objects {
            for o in list {
                guard let id = o["id"] else { continue }
                if controllers.updateValue(o, forKey: id) == nil { order.append(id) }
            }
        }
        /// A controller's segues, from itself or from anything in it (a cell, a button, a bar item).
        func segues(_ c: XMLElement) -> [XMLElement] {
            var out: [XMLElement] = []
            func walk(_ e: XMLElement) { for x in e.children { if x.name == "segue" { out.append(x) } else { walk(x) } } }
            walk(c)
            return out
        }
        func destinations(_ c: XMLElement, relationship: String) -> [String] {
            segues(c).filter { $0["kind"] == "relationship" && $0["relationship"] == relationship }.compactMap { $0["destination"] }
        }
        /// A navigation controller's stack: its root, what it shows itself
        /// (`navigationControllerShows`) and what they show, breadth first.
        func stack(of nav: XMLElement) -> [String] {
            var seen: [String] = [], queue = destinations(nav, relationship: "rootViewController") + Self.navigationControllerShows(nav, segues)
            while let id = queue.first {
                queue.removeFirst()
                guard !seen.contains(id), let c = controllers[id], c.name != "navigationController" else { continue }
                seen.append(id)
                queue += segues(c).filter { $0["kind"] == "show" || $0["kind"] == "push" }.compactMap { $0["destination"] }
            }
            return seen
        }
        var navs: [(id: String, members: [String])] = []
        for id in order {
            guard let c = controllers[id], c.name == "navigationController" else { continue }
            let bar = c.child("navigationBar", key: "navigationBar")
            let members = stack(of: c)
            navs.append((id, members))
            guard c["navigationBarHidden"] != "YES" && bar?["hidden"] != "YES" else { continue }
            // The bar's height as the document stores it (54 from Xcode 26 on) where it is one
            // UIKit gives a bar, else 44; a bar with large titles stores the large height.
            let frame = bar.flatMap { storedFrame($0) }
            let stored = frame.flatMap { $0.height > 0 ? $0.height : nil }
            let usual = frame.flatMap { Self.isUIKitBarHeight($0.height, width: $0.width) ? $0.height : nil }
            let largeTitles = bar?["largeTitles"] == "YES"
            for m in members where top[m] == nil {
                let large = largeTitles && controllers[m]?.child("navigationItem")?["largeTitleDisplayMode"] != "never"
                top[m] = large ? max(96, stored ?? 96) : largeTitles ? 44 : usual ?? 44
                if bar?["translucent"] == "NO" && controllers[m]?["extendedLayoutIncludesOpaqueBars"] != "YES" { opaqueTop.insert(m) }
            }
        }
        let stacks = Dictionary(navs, uniquingKeysWith: { first, _ in first })
        for (_, c) in controllers where c.name == "tabBarController" {
            for d in destinations(c, relationship: "viewControllers") {
                for m in stacks[d] ?? [d] { bottom[m] = 49 }
            }
        }
        // Simulated metrics a controller sets win over what is inferred.
        var ownTop: [String: Double] = [:], ownBottom: [String: Double] = [:]
        for (id, c) in controllers {
            for child in c.children {
                switch (child.name, child["key"]) {
                case ("nil", "simulatedTopBarMetrics"): ownTop[id] = 0
                case ("simulatedNavigationBarMetrics", "simulatedTopBarMetrics"): ownTop[id] = child["prompted"] == "YES" ? 74 : 44
                case ("nil", "simulatedBottomBarMetrics"): ownBottom[id] = 0
                case ("simulatedTabBarMetrics", "simulatedBottomBarMetrics"): ownBottom[id] = 49
                case ("simulatedToolbarMetrics", "simulatedBottomBarMetrics"): ownBottom[id] = 44
                default: break
                }
            }
        }
        Self.stackInheritsBottomBar(navigations: navs, own: ownBottom, into: &bottom)
        top.merge(ownTop) { $1 }
        bottom.merge(ownBottom) { $1 }
        Self.shownInheritBottomBar(controllers: controllers, segues: segues, own: ownBottom, xcode: xcode, into: &bottom)
        Self.shownInheritHiddenTopBar(controllers: controllers, segues: segues, own: ownTop, into: &top)
        noStatusBar = Self.inferredWithoutStatusBar(controllers: controllers, order: order, segues: segues)
        Self.shownInheritTopBar(controllers: controllers, segues: segues, own: ownTop, into: &top)
    }

    /// Controllers whose simulated status bar is None (`<nil key="simulatedStatusBarMetrics"/>`),
    /// their own or inferred as Xcode infers a controller's simulated metrics where it sets
    /// none: from the navigation controller whose root it is, or from the controller that shows
    /// it (`show` or `push`). Used where a document names no device (`RootBuilder.noDeviceCanvas`;
    /// with a device, a status bar None lost views on the validation half: not kept).
    /// IBCorpus development half: tiana890/NakedChinese (Xcode 6, a navigation controller
    /// with its bar hidden and status bar None: its root's views stored from y 0, 2 views; a
    /// controller pushed from one that sets a status bar has it, as stored), none the other
    /// way; no change on the validation half.
    static func inferredWithoutStatusBar(
        controllers: [String: XMLElement], order: [String], segues: (XMLElement) -> [XMLElement]
    ) -> Set<String> {
        func own(_ c: XMLElement) -> Bool? {
            guard let m = c.children.first(where: { $0["key"] == "simulatedStatusBarMetrics" }) else { return nil }
            return m.name == "nil"
        }
        var none: Set<String> = [], queue = order.filter { id in controllers[id].flatMap(own) == true }
        none.formUnion(queue)
        while let id = queue.first {
            queue.removeFirst()
            guard let c = controllers[id] else { continue }
            let next = segues(c).filter {
                $0["kind"] == "show" || $0["kind"] == "push" || ($0["kind"] == "relationship" && $0["relationship"] == "rootViewController")
            }.compactMap { $0["destination"] }
            for d in next where !none.contains(d) {
                guard let dc = controllers[d], own(dc) == nil else { continue }
                none.insert(d)
                queue.append(d)
            }
        }
        return none
    }

    /// A navigation controller's own `show` (or `push`) segue pushes onto its stack, as
    /// `UINavigationController.show(_:sender:)` does: Xcode draws its navigation bar over the
    /// controller shown. IBCorpus development half: firatsertgoz/Bitirme (a custom navigation
    /// controller's segue to a dashboard, Xcode 7; its table from the top layout guide stored
    /// at y 64), none the other way; no change on the validation half.
    static func navigationControllerShows(_ nav: XMLElement, _ segues: (XMLElement) -> [XMLElement]) -> [String] {
        segues(nav).filter { $0["kind"] == "show" || $0["kind"] == "push" }.compactMap { $0["destination"] }
    }

    /// What a controller shows (a `show` or `push` segue) is pushed onto its navigation stack:
    /// Xcode draws the navigation bar over the controller showing it over what it shows, where
    /// neither the shown controller's own simulated metrics nor a stack of this storyboard say
    /// otherwise; a tab bar controller shown passes it to its tabs. IBCorpus development half:
    /// controllers shown from one with a simulated navigation bar (IBAnimatable, 2 documents,
    /// 14 views) and a tab bar controller's tabs shown from a navigation stack
    /// (IsmailMuhammaad/Zakerly, 21 views). A tab's tab bar over what it shows without a
    /// navigation controller is one repository each way (Xcode 9 draws it, Xcode 10 not): not
    /// inherited.
    static func shownInheritTopBar(
        controllers: [String: XMLElement], segues: (XMLElement) -> [XMLElement], own: [String: Double], into top: inout [String: Double]
    ) {
        var queue = controllers.keys.sorted().filter { (top[$0] ?? 0) > 0 }
        while let id = queue.first {
            queue.removeFirst()
            guard let c = controllers[id], let bar = top[id], bar > 0 else { continue }
            var shown = segues(c).filter { $0["kind"] == "show" || $0["kind"] == "push" }.compactMap { $0["destination"] }
            if c.name == "tabBarController" {
                shown += segues(c).filter { $0["kind"] == "relationship" && $0["relationship"] == "viewControllers" }.compactMap { $0["destination"] }
            }
            for d in shown where top[d] == nil && own[d] == nil && controllers[d].map({ $0.name != "navigationController" }) == true {
                top[d] = bar
                queue.append(d)
            }
        }
    }

    /// A controller whose own simulated metrics hide the top bar (`<nil
    /// key="simulatedTopBarMetrics"/>`) passes that to what it shows (a `show` or `push` segue)
    /// where the shown controller sets no top bar of its own: Xcode infers a shown
    /// controller's bars from the one showing it, before its navigation stack's bar. IBCorpus
    /// development half: HenryHengZJ/24HiresIOS (a stack's root without a bar pushing two
    /// freeform controllers, Xcode 9, 7 views 44 points high) and tiana890/NakedChinese (a
    /// controller pushed from one without a bar and also another stack's root, Xcode 6, 1
    /// view): 8 views of 2 repositories, none the other way; no change on validation.
    static func shownInheritHiddenTopBar(
        controllers: [String: XMLElement], segues: (XMLElement) -> [XMLElement], own: [String: Double], into top: inout [String: Double]
    ) {
        var queue = own.keys.sorted().filter { own[$0] == 0 }
        var seen = Set(queue)
        while let id = queue.first {
            queue.removeFirst()
            guard let c = controllers[id] else { continue }
            let shown = segues(c).filter { $0["kind"] == "show" || $0["kind"] == "push" }.compactMap { $0["destination"] }
            for d in shown where own[d] == nil && controllers[d].map({ $0.name != "navigationController" }) == true && seen.insert(d).inserted {
                top[d] = 0
                queue.append(d)
            }
        }
    }

    /// Before Xcode 10, a controller shown (a `show` or `push` segue) from one whose own
    /// simulated metrics set its bottom bar (a tab bar, a toolbar, or None) is drawn with that
    /// bar where it sets none itself, over what its navigation stack or tab says, and passes it
    /// on to what it shows: Xcode infers a shown controller's bars from the one showing it.
    /// IBCorpus development half (toolsVersion 10116–14109): mingxiangchan/ios_instagram (a
    /// stack's root with a simulated tab bar pushing a comments page, Xcode 7.3, 3 views),
    /// Kwang8/ExploreWorld (a tab with a simulated tab bar showing a tab that shows two pages,
    /// no navigation controller, Xcode 8.3, 7 views), HenryHengZJ/24HiresIOS (a controller
    /// with its bottom bar None in a tab's stack pushing a web view, Xcode 9.0, 1 view) and
    /// arichards33/Picture_Journal (a stack's root with a simulated toolbar, Xcode 9.4, 3
    /// views): 14 views of 4 repositories. Xcode 10 does not (piplups/surveydragon, Xcode
    /// 10.1: a tab's simulated tab bar not drawn under what it shows, 1 view).
    static func shownInheritBottomBar(
        controllers: [String: XMLElement], segues: (XMLElement) -> [XMLElement], own: [String: Double], xcode: ToolsVersion,
        into bottom: inout [String: Double]
    ) {
        guard xcode.isBefore(14200) else { return }
        var queue = own.keys.sorted()
        var seen = Set(queue)
        while let id = queue.first {
            queue.removeFirst()
            guard let c = controllers[id], let bar = bottom[id] else { continue }
            let shown = segues(c).filter { $0["kind"] == "show" || $0["kind"] == "push" }.compactMap { $0["destination"] }
            for d in shown where own[d] == nil && controllers[d].map({ $0.name != "navigationController" }) == true && seen.insert(d).inserted {
                bottom[d] = bar
                queue.append(d)
            }
        }
    }

    /// A navigation controller's simulated bottom bar is its stack's where a member sets none:
    /// a navigation controller that is a tab of a tab bar controller in another storyboard
    /// says so by its simulated tab bar, and Xcode draws the bar under its whole stack (root
    /// views 49 above the bottom in 13 roots of 4 repositories, toolsVersion 12121–15505).
    static func stackInheritsBottomBar(navigations: [(id: String, members: [String])], own: [String: Double], into bottom: inout [String: Double]) {
        var given: Set<String> = []
        for (nav, members) in navigations {
            guard let bar = own[nav] else { continue }
            for m in members where own[m] == nil && given.insert(m).inserted { bottom[m] = bar }
        }
    }

    /// The bars over a controller's root.
    /// A navigation bar's stored height Xcode's canvas draws: one UIKit gives a bar (44; 50 on
    /// an iPad; 54 from Xcode 26 on; 56 in a sheet; 74 with a prompt). Another is a leftover
    /// the canvas does not use, which draws 44: IBCorpus development half, alvinluu/OdinScanner
    /// (1000, Xcode 8) and Fluority/AppleNewsFeed (50 on a 320-point phone, Xcode 14.3), 3
    /// views of 2 repositories; xmartlabs/Eureka's sheet stores and draws 56.
    static func isUIKitBarHeight(_ h: Double, width: Double) -> Bool {
        [44, 54, 56, 74].contains(h) || (h == 50 && width >= 700)
    }

    func of(_ controller: String) -> ControllerBars {
        ControllerBars(
            top: top[controller] ?? 0, bottom: bottom[controller] ?? 0, opaqueTop: opaqueTop.contains(controller),
            noStatusBar: noStatusBar.contains(controller))
    }
}

/// The bars Xcode's canvas shows over one controller's root: the top bars' height (below the
/// status bar), the bottom bar's, whether the root starts below an opaque navigation bar, and
/// whether its simulated status bar is None.
struct ControllerBars {
    var top = 0.0
    var bottom = 0.0
    var opaqueTop = false
    var noStatusBar = false
}
