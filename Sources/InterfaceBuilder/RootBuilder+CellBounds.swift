/// A table cell's own bounds, where its content view is stored narrower or shorter than the
/// cell (beside an accessory: a disclosure indicator or a detail button).
extension RootBuilder {
    /// Constraints that name the cell relate to the cell's edges, not its content view's:
    /// views pinned to the cell's trailing edge reach past the accessory, as Xcode stores them
    /// (IBCorpus development half: Latrops/Party-Maker's disclosure cells, Xcode 4.6 and 5,
    /// and OceanLabs/Photobook-iOS's detail-button cell, Xcode 10: 3 documents, 2
    /// repositories). A guide of the cell's bounds in the content view's coordinates; the
    /// cell's margins stay its content view's. nil: the content view fills the cell.
    mutating func cellBoundsGuide(cellID: String, rootID: String, content: Frame, cell: Size) -> String? {
        guard controller?.name == "tableViewCell",
            content != Frame(x: 0, y: 0, width: cell.width, height: cell.height)
        else { return nil }
        let guide = "\(cellID)-bounds"
        addGuide(
            guide, in: rootID, top: -content.y, left: -content.x, bottom: content.y + content.height - cell.height,
            right: content.x + content.width - cell.width)
        return guide
    }

    /// Xcode 6 and 7 left a table cell's content view at the template's 320 x 43 in the file
    /// when the cell was made another size, and laid it out at the cell's width and its height
    /// less the 1-point separator: the subviews' stored frames follow the cell's size (IBCorpus
    /// development half, toolsVersion 6254 and 7702: mhkane/colis's two cells of 134 and 299,
    /// TLuthra/twitter-ios-animations's 375 x 147 cell, Natoto/JXL's 326 x 230 one; 3
    /// repositories, 4 documents). nil: the content view's stored frame stands.
    static func templateContentViewLaidOut(_ content: Frame, cell: Size, xcode: ToolsVersion) -> Frame? {
        guard xcode.isBefore(8000), content == Frame(x: 0, y: 0, width: 320, height: 43), cell.width != 320 || cell.height != 44 else {
            return nil
        }
        return Frame(x: 0, y: 0, width: cell.width, height: cell.height - 1)
    }

    /// The view a constraint's item names: the cell's bounds for an edge, size or centre of a
    /// cell stored wider than its content view, else the view (a cell's content view for it).
    func item(_ id: String, attribute: String) -> String {
        if let bounds = areas.cellBounds, id == bounds.cell, !attribute.contains("Margin") { return bounds.guide }
        return tree.aliases[id] ?? id
    }
}
