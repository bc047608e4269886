public import LayoutModel

extension Picture {
    /// Two layouts of one document over each other: where each view was expected (dashed),
    /// and where it is (outlined; red when it `moved` past the comparison's tolerance).
    /// `parents` places frames, which are in their parent's coordinates; a view without one
    /// is drawn where its frame says.
    public init(name: String?, expected: [FrameEntry], actual: [FrameEntry], moved: Set<String>, parents: [String: String]) {
        self.name = name
        func absolute(_ frames: [FrameEntry]) -> [(FrameEntry, Rect)] {
            var byID: [String: Rect] = [:], hidden = Set<String>()
            for f in frames {
                byID[f.id] = f.frame
                if f.hidden { hidden.insert(f.id) }
            }
            var origins = Origins(frames: byID, parents: parents, hidden: hidden)
            return frames.compactMap { f in
                let o = origins.origin(f.id)
                return o.shown ? (f, Rect(x: o.x, y: o.y, width: f.frame.width, height: f.frame.height)) : nil
            }
        }
        var boxes: [Box] = []
        var size = (width: 1.0, height: 1.0)
        for (f, r) in absolute(expected) {
            boxes.append(Box(id: f.id, frame: r, isGuide: false, mark: .expected, text: nil))
            size = (max(size.width, r.x + r.width), max(size.height, r.y + r.height))
        }
        for (f, r) in absolute(actual) {
            boxes.append(Box(id: f.id, frame: r, isGuide: false, mark: moved.contains(f.id) ? .moved : .none, text: nil))
            size = (max(size.width, r.x + r.width), max(size.height, r.y + r.height))
        }
        (width, height) = size
        self.boxes = boxes
    }
}
