/// What IB lays out on its own in a document, each a root: a controller's view, a xib's
/// top-level view, a table or collection cell's content view, and the views a table or
/// collection view holds outside its subviews (table header and footer views, collection
/// section headers and footers), which Xcode lays out at their stored size.
struct FoundRoot {
    var kind: ImportedRoot.Kind
    /// The controller's id for a scene, the view's or cell's id otherwise.
    var name: String
    var view: XMLElement
    /// The scene's controller or the cell the content view is of.
    var owner: XMLElement?
    /// A table cell stored without a frame (Xcode 5 and 6 prototypes): its table's width and
    /// its row height.
    var unstoredCellSize: Size?
    /// A table cell whose table is a controller's view (a table view controller's): its
    /// margins follow that view's (`Device.controllersTableCellSideMargin`).
    var inControllersTable = false
    /// A cell in a scene: the width of the scene's view, whose traits set the cell's margins.
    var sceneWidth: Double?
    /// A xib's top-level view that is its File's Owner's `view` outlet: the view a controller
    /// loads from the nib, its root view (`RootBuilder.isControllersRoot`).
    var isOwnersView = false
}

enum RootDiscovery {
    static func roots(in lists: [[XMLElement]]) -> [FoundRoot] {
        var found: [FoundRoot] = []
        for objects in lists {
            let ownersViews = Set(
                objects.filter { $0["placeholderIdentifier"] == "IBFilesOwner" }.flatMap { owner in
                    owner.list("connections").filter { $0.name == "outlet" && $0["property"] == "view" }.compactMap { $0["destination"] }
                })
            for object in objects {
                if let view = object.children.first(where: { $0["key"] == "view" && hasFrame($0) }) {
                    found.append(FoundRoot(kind: .scene, name: object["id"] ?? view["id"] ?? "", view: view, owner: object))
                    inner(view, table: Self.lists.contains(view.name) ? view : nil, sceneWidth: storedFrame(view)?.width, into: &found)
                } else if Importer.isCell(object) {
                    cell(object, table: nil, into: &found)
                    inner(object, table: Self.lists.contains(object.name) ? object : nil, into: &found)
                } else if Importer.isView(object) {
                    var root = FoundRoot(kind: .view, name: object["id"] ?? "", view: object)
                    root.isOwnersView = object["id"].map { ownersViews.contains($0) } ?? false
                    found.append(root)
                    inner(object, table: Self.lists.contains(object.name) ? object : nil, into: &found)
                }
            }
        }
        return found
    }

    /// The views whose cells are sized by them: the nearest is passed down as `table`.
    static let lists: Set<String> = ["tableView", "collectionView"]

    /// The keys under which a table or collection view holds views that are not its subviews.
    static let heldViews: Set<String> = ["tableHeaderView", "tableFooterView"]

    /// Cells and held views anywhere under `element`, with the table they are in.
    private static func inner(_ element: XMLElement, table: XMLElement?, sceneWidth: Double? = nil, into found: inout [FoundRoot]) {
        for child in element.children {
            cell(child, table: table, sceneWidth: sceneWidth, into: &found)
            if Importer.isView(child), child.name == "collectionReusableView" || heldViews.contains(child["key"] ?? "") {
                found.append(FoundRoot(kind: .view, name: child["id"] ?? "", view: child))
            }
            inner(child, table: Self.lists.contains(child.name) ? child : table, sceneWidth: sceneWidth, into: &found)
        }
    }

    private static func cell(_ e: XMLElement, table: XMLElement?, sceneWidth: Double? = nil, into found: inout [FoundRoot]) {
        guard Importer.isCell(e), let content = e.children.first(where: { $0["key"] == "contentView" }) else { return }
        var root = FoundRoot(kind: .cell, name: e["id"] ?? "", view: content, owner: e)
        root.inControllersTable = e.name == "tableViewCell" && table?["key"] == "view"
        root.sceneWidth = sceneWidth
        if !hasFrame(e) { root.unstoredCellSize = unstoredSize(of: e, in: table) }
        found.append(root)
    }

    /// A cell stored without a frame, at the size UIKit gives it: a table cell its table's
    /// width at its row height (320 × 44, `UITableViewCell`'s own, outside a table); a
    /// collection cell its flow layout's `itemSize`, else the layout's default, 50 × 50.
    static func unstoredSize(of cell: XMLElement, in list: XMLElement?) -> Size {
        if cell.name == "tableViewCell" {
            let table = list?.name == "tableView" ? list : nil
            return Size(width: table.flatMap { storedFrame($0)?.width } ?? 320, height: rowHeight(of: cell, in: table))
        }
        let layout = list?.children.first { $0["key"] == "collectionViewLayout" }
        let item = layout?.children.first { $0.name == "size" && $0["key"] == "itemSize" }
        guard let item, let width = item.number("width"), let height = item.number("height"), width > 0, height > 0 else {
            return Size(width: 50, height: 50)
        }
        return Size(width: width, height: height)
    }

    /// A prototype's row height: its own, else its table's, else UIKit's 44 (IB writes -1 for
    /// an automatic height).
    static func rowHeight(of cell: XMLElement, in table: XMLElement?) -> Double {
        [cell.number("rowHeight"), table?.number("rowHeight")].compactMap { $0 }.first { $0 > 0 } ?? 44
    }
}
