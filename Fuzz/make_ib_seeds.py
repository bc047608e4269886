#!/usr/bin/env python3
"""Seeds of the `ib` fuzz target (Fuzz/Corpus/ib) and its dictionary (Fuzz/Dictionaries/ib.dict).

Small storyboards and xibs (each under the fuzzer's 4,096-byte inputs) that between them use
every element and attribute the importer reads (Sources/InterfaceBuilder): scenes and their
controllers, navigation and tab bar controllers with their segues and bars, simulated
metrics, iOS 7 layout guides, safe areas, table cells of every style, collection cells, stack
views of every axis, distribution and alignment, scroll views and their guides, labels of
every kind of font description and real text, controls, image views and the images named in
resources, constraints of every attribute with ratios, priorities and size-class variations,
autoresizing masks, Xcode 8's frame insets, margins, intrinsic and placeholder sizes; and
documents with the numbers a document should not hold, each attribute on its own.

Deterministic: running it again writes the same files.
Run: python3 Fuzz/make_ib_seeds.py   (it replaces the generated files of Fuzz/Corpus/ib)
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "Corpus", "ib")
DICT = os.path.join(HERE, "Dictionaries", "ib.dict")
PREFIX = "gen-"  # the files this script writes (others in the folder are kept)
MAX = 4096


def attrs(a):
    return "".join(f' {k}="{v}"' for k, v in a.items() if v is not None)


def el(name, a=None, *children):
    a = a or {}
    if not children:
        return f"<{name}{attrs(a)}/>"
    return f"<{name}{attrs(a)}>" + "\n".join(children) + f"</{name}>"


def rect(x, y, w, h, key="frame"):
    return el("rect", {"key": key, "x": x, "y": y, "width": w, "height": h})


def c(first, fa, second=None, sa=None, id=None, **more):
    a = {"firstItem": first, "firstAttribute": fa, "secondItem": second, "secondAttribute": sa}
    a.update(more)
    a["id"] = id
    return el("constraint", a)


def view(tag, id, frame, *children, **a):
    a = dict(a)
    a.setdefault("translatesAutoresizingMaskIntoConstraints", "NO")
    a["id"] = id
    return el(tag, a, frame, *children)


def subviews(*vs):
    return el("subviews", {}, *vs)


def constraints(*cs):
    return el("constraints", {}, *cs)


def font(**a):
    return el("fontDescription", dict({"key": "fontDescription"}, **a))


def label(id, frame, text="Label", fd=None, **a):
    return view("label", id, frame, *( [fd] if fd else [font(type="system", pointSize="17")] ), text=text, **a)


def storyboard(*scenes, device="retina6_1", orientation="portrait", tools="22505", runtime="iOS.CocoaTouch", extra=""):
    dev = el("device", {"id": device, "orientation": orientation, "appearance": "light"}) if device else ""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + el(
            "document",
            {"type": "com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB", "version": "3.0", "toolsVersion": tools,
             "targetRuntime": runtime, "useAutolayout": "YES", "useSafeAreas": "YES"},
            dev, el("scenes", {}, *scenes), extra)
        + "\n"
    )


def xib(*objects, device="retina6_1", orientation="portrait", tools="22505", resources=""):
    dev = el("device", {"id": device, "orientation": orientation}) if device else ""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + el(
            "document",
            {"type": "com.apple.InterfaceBuilder3.CocoaTouch.XIB", "version": "3.0", "toolsVersion": tools,
             "targetRuntime": "iOS.CocoaTouch", "useAutolayout": "YES"},
            dev, el("objects", {}, el("placeholder", {"placeholderIdentifier": "IBFilesOwner", "id": "-1"}), *objects), resources)
        + "\n"
    )


def scene(id, controller):
    return el("scene", {"sceneID": f"{id}-scene"}, el("objects", {}, controller))


def controller(id, root, *extra, tag="viewController", **a):
    return el(tag, dict({"id": id}, **a), root, *extra)


def root(id, *children, w=414, h=896, key="view"):
    return el("view", {"key": key, "contentMode": "scaleToFill", "id": id}, rect(0, 0, w, h), *children)


def safe(id="safe"):
    return el("viewLayoutGuide", {"key": "safeArea", "id": id})


def pin(v, to="safe", d=20):
    """A view's four edges to `to`'s."""
    return [c(v, "top", to, "top", constant=d, id=f"{v}-t"), c(v, "leading", to, "leading", constant=d, id=f"{v}-l"),
            c(to, "trailing", v, "trailing", constant=d, id=f"{v}-r"), c(to, "bottom", v, "bottom", constant=d, id=f"{v}-b")]


SEEDS = {}


def seed(name, text):
    assert len(text.encode()) <= MAX, f"{name}: {len(text.encode())} bytes"
    SEEDS[name] = text


# Labels: every kind of font description, text in attributes, elements and fragments.
STYLES = ["UICTFontTextStyleLargeTitle", "UICTFontTextStyleTitle1", "UICTFontTextStyleTitle2", "UICTFontTextStyleTitle3",
          "UICTFontTextStyleHeadline", "UICTFontTextStyleBody", "UICTFontTextStyleCallout", "UICTFontTextStyleSubhead",
          "UICTFontTextStyleFootnote", "UICTFontTextStyleCaption1", "UICTFontTextStyleCaption2"]
WEIGHTS = ["ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black"]


def labels_doc(fds, texts, name_prefix):
    vs, cs = [], []
    prev = "safe"
    for k, fd in enumerate(fds):
        lid = f"{name_prefix}{k}"
        vs.append(label(lid, rect(20, 60 + 24 * k, 374, 21), text=texts[k % len(texts)], fd=fd, numberOfLines=["0", "1", "2", None][k % 4],
                        horizontalHuggingPriority="251" if k % 2 else None))
        cs.append(c(lid, "leading", "safe", "leading", constant=20, id=f"{lid}-l"))
        cs.append(c(lid, "top", prev, "top" if prev == "safe" else "bottom", constant=8, id=f"{lid}-t"))
        prev = lid
    return storyboard(scene("vc", controller("vc", root("root", subviews(*vs), safe(), constraints(*cs)))))


def labels_docs(name, fds, texts, prefix, per=5):
    for k in range(0, len(fds), per):
        seed(f"{name}-{k // per}", labels_doc(fds[k:k + per], texts[k:k + per] if len(texts) > 1 else texts, prefix))


labels_docs("labels-types", *(
    [font(type="system", pointSize="17"), font(type="boldSystem", pointSize="20"), font(type="italicSystem", pointSize="12"),
     font(type="system", pointSize="0.0"), font(type="system", weight="semibold", pointSize="15"),
     font(name="Helvetica-BoldOblique", family="Helvetica", pointSize="14"), font(name="Menlo-Italic", family="Menlo", pointSize="11"),
     font(type="system", pointSize="9999")],
    ["Hello", "Bold title", "Italic", "zero size", "Semibold", "Helvetica", "Menlo", "huge"], "lt"))
labels_docs("labels-text-styles", *([font(style=s) for s in STYLES], ["Aa"], "ls"))
labels_docs("labels-weights", *([font(type="system", weight=w, pointSize="16") for w in WEIGHTS], ["Weight"], "lw"))
labels_docs("labels-real-text", *(
    [font(type="system", pointSize="17")] * 10,
    ["Hi &#x1F1EB;&#x1F1F7; &#x1F1EF;&#x1F1F5;", "&#x1F468;&#x200D;&#x1F469;&#x200D;&#x1F467; family", "&#x1F3F3;&#xFE0F;&#x200D;&#x1F308;",
     "caf&#xE9; cafe&#x301; &#x301;alone", "&#x5E9;&#x5DC;&#x5D5;&#x5DD; hello &#x645;&#x631;&#x62D;&#x628;&#x627;",
     "&#xE20;&#xE32;&#xE29;&#xE32;&#xE44;&#xE17;&#xE22;", "&#x65E5;&#x672C;&#x8A9E;&#x306E;&#x30C6;&#x30AD;&#x30B9;&#x30C8;",
     "line one&#10;line two&#13;&#10;three&#9;tab", "&#x202E;evil&#x202C; &#x2066;iso&#x2069; &#x200B;&#x2060;&#xAD;", "&#xFFFD;&#xE000;&#x1F44B;&#x1F3FD;"],
    "lr"))
seed("labels-text-children", storyboard(scene("vc", controller("vc", root("root", subviews(
    view("label", "ta", rect(20, 60, 300, 21), el("string", {"key": "text"}, "Text from an element &amp; more"), font(type="system", pointSize="17"),
         numberOfLines="0"),
    view("label", "tb", rect(20, 90, 300, 42),
         el("attributedString", {"key": "attributedText"},
            el("fragment", {"content": "Attributed "}, el("attributes", {}, font(type="boldSystem", pointSize="17"))),
            el("fragment", {}, el("string", {"key": "content"}, "second&#10;fragment"), el("attributes", {}))),
         numberOfLines="2"),
    view("label", "tc", rect(20, 140, 300, 21), font(type="system", pointSize="17")),
    view("label", "td", rect(20, 170, 300, 21), font(type="system", pointSize="17"), text=""),
    view("label", "te", rect(20, 200, 300, 0), font(type="system", pointSize="17"), text="no height"),
), safe(), constraints(
    c("ta", "leading", "safe", "leading", constant=20, id="c1"), c("ta", "top", "safe", "top", constant=12, id="c2"),
    c("tb", "firstBaseline", "ta", "lastBaseline", constant=8, id="c3"), c("tb", "leading", "ta", "leading", id="c4"),
    c("tc", "baseline", "tb", "baseline", id="c5"), c("tc", "leading", "tb", "trailing", constant=8, symbolic="YES", id="c6"),
    c("td", "top", "tc", "bottom", constant=8, symbolic="YES", id="c7"), c("td", "centerX", "safe", "centerX", id="c8"),
    c("te", "top", "td", "bottom", id="c9"), c("te", "leading", "safe", "leadingMargin", id="c10"),
))))))

# Table cells: every style, their labels at size 0 (what Xcode writes), old and new Xcode.
CELL_STYLES = ["IBUITableViewCellStyleDefault", "IBUITableViewCellStyleSubtitle", "IBUITableViewCellStyleValue1",
               "IBUITableViewCellStyleValue2"]


def table_cells(tools, styles, custom=False):
    cells = []
    for k, style in enumerate(styles):
        cid = f"cell{k}"
        labels = [view("label", f"{cid}t", rect(16, 5, 33, 20), font(type="system", pointSize="0.0"), text="Title",
                       translatesAutoresizingMaskIntoConstraints=None)]
        detail = None
        if style != "IBUITableViewCellStyleDefault":
            detail = f"{cid}d"
            labels.append(view("label", detail, rect(16, 25, 44, 14.5), font(type="system", pointSize="0.0"), text="Detail",
                               translatesAutoresizingMaskIntoConstraints=None))
        content = el("tableViewCellContentView", {"key": "contentView", "id": f"{cid}c"}, rect(0, 0, 414, 43.5),
                     el("autoresizingMask", {"key": "autoresizingMask", "widthSizable": "YES", "heightSizable": "YES"}),
                     subviews(*labels))
        cells.append(el("tableViewCell", {"style": style, "textLabel": f"{cid}t", "detailTextLabel": detail,
                                          "reuseIdentifier": cid, "id": cid}, rect(0, 28 + 44 * k, 414, 44), content))
    if custom:
        content = el("tableViewCellContentView", {"key": "contentView", "id": "cc"}, rect(0, 0, 414, 80), subviews(
            label("cl", rect(20, 11, 374, 58), numberOfLines="0")), constraints(
            c("cl", "leading", "cc", "leadingMargin", id="x1"), c("cl", "top", "cc", "topMargin", id="x2"),
            c("cc", "trailingMargin", "cl", "trailing", id="x3"), c("cc", "bottomMargin", "cl", "bottom", id="x4")))
        cells.append(el("tableViewCell", {"id": "custom", "rowHeight": "80"}, rect(0, 300, 414, 80), content,
                        constraints(c("custom", "height", None, None, constant=80, priority=999, id="x5"))))
    table = el("tableView", {"clipsSubviews": "YES", "style": "plain", "rowHeight": "-1", "id": "tv"}, rect(0, 0, 414, 896),
               el("prototypes", {}, *cells))
    return storyboard(scene("tvc", el("tableViewController", {"id": "tvc"}, table.replace("<tableView ", '<tableView key="view" ', 1))),
                      tools=tools)


seed("cells-styles-xcode16", table_cells("22505", CELL_STYLES))
seed("cells-styles-xcode8", table_cells("11762", CELL_STYLES))
seed("cells-styles-xcode11", table_cells("16097.2", CELL_STYLES[:2], custom=True))
seed("cells-styles-unknown-xcode", table_cells("", CELL_STYLES[1:], custom=False).replace(' toolsVersion=""', ""))

# Collection cells: in a collection view (content view without an id) and alone in a xib.
seed("collection", storyboard(scene("cvc", el("collectionViewController", {"id": "cvc"}, el(
    "collectionView", {"key": "view", "clipsSubviews": "YES", "dataMode": "prototypes", "id": "cv"}, rect(0, 0, 414, 896),
    el("collectionViewFlowLayout", {"key": "collectionViewLayout", "minimumLineSpacing": "10", "id": "fl"},
       el("size", {"key": "itemSize", "width": "128", "height": "128"})),
    el("cells", {},
       el("collectionViewCell", {"reuseIdentifier": "a", "id": "cc1"}, rect(0, 0, 128, 128),
          el("view", {"key": "contentView"}, rect(0, 0, 128, 128), subviews(
              view("imageView", "ci", rect(0, 0, 128, 100), image="photo"), label("ct", rect(0, 104, 128, 20)))),
          constraints(c("ci", "top", "cc1", "top", id="k1"), c("ci", "leading", "cc1", "leading", id="k2"),
                      c("cc1", "trailing", "ci", "trailing", id="k3"), c("ct", "top", "ci", "bottom", constant=4, id="k4"),
                      c("ct", "leading", "ci", "leading", id="k5"), c("ci", "height", "ci", "width", multiplier="100:128", id="k6"))),
       el("collectionViewCell", {"reuseIdentifier": "b", "id": "cc2"}, rect(138, 0, 128, 128),
          el("collectionViewCellContentView", {"key": "contentView", "id": "cc2c"}, rect(0, 0, 128, 128))))))),
    extra=el("resources", {}, el("image", {"name": "photo", "width": "640", "height": "480"}))))
seed("xib-cells", xib(
    el("collectionViewCell", {"id": "xc"}, rect(0, 0, 100, 50),
       el("view", {"key": "contentView"}, rect(0, 0, 100, 50), subviews(label("xcl", rect(8, 8, 84, 34)))),
       constraints(c("xcl", "centerX", "xc", "centerX", id="q1"), c("xcl", "centerY", "xc", "centerY", id="q2"))),
    el("tableViewCell", {"style": "IBUITableViewCellStyleSubtitle", "detailTextLabel": "xd", "id": "xt"}, rect(0, 0, 320, 60),
       el("tableViewCellContentView", {"key": "contentView", "id": "xtc"}, subviews(
           view("label", "xtl", rect(15, 10, 40, 20), font(type="system", pointSize="0.0"), text="T", translatesAutoresizingMaskIntoConstraints=None),
           view("label", "xd", rect(15, 32, 40, 14.5), font(type="system", pointSize="0.0"), text="D", translatesAutoresizingMaskIntoConstraints=None)))),
    view("view", "xv", rect(0, 0, 414, 896), subviews(label("xvl", rect(0, 48, 100, 20))), safe("xs"),
         constraints(c("xvl", "top", "xs", "top", id="r1"), c("xvl", "leading", "xs", "leading", id="r2")),
         translatesAutoresizingMaskIntoConstraints=None)))

# Stack views: every axis, distribution and alignment.
DISTRIBUTIONS = [None, "fill", "fillEqually", "fillProportionally", "equalSpacing", "equalCentering"]
ALIGNMENTS = [None, "fill", "top", "leading", "center", "trailing", "bottom", "firstBaseline", "baseline", "lastBaseline"]


def stacks_doc(specs, tag):
    vs, cs = [], []
    y = 60
    for k, (axis, dist, align, extra) in enumerate(specs):
        sid = f"{tag}{k}"
        arranged = [label(f"{sid}a", rect(0, 0, 60, 20), text="Stack"),
                    view("view", f"{sid}b", rect(68, 0, 40, 30), *([] if k % 2 else [el("size", {"key": "intrinsicContentSize", "width": "40", "height": "30"})])),
                    view("button", f"{sid}c", rect(116, 0, 50, 30), font(type="system", pointSize="15"), hidden="YES" if k % 3 == 0 else None)]
        vs.append(view("stackView", sid, rect(20, y, 300, 44), subviews(*arranged), axis=axis, distribution=dist, alignment=align,
                       spacing=None if extra.get("spacingType") else str(4 * k), **extra))
        cs += [c(sid, "leading", "safe", "leading", constant=20, id=f"{sid}l"), c(sid, "top", "safe", "top", constant=y, id=f"{sid}t")]
        y += 52
    return storyboard(scene("vc", controller("vc", root("root", subviews(*vs), safe(), constraints(*cs)))))


specs = []
for d in DISTRIBUTIONS:
    for k, a in enumerate(ALIGNMENTS):
        # Baseline alignment is a horizontal stack's (a vertical one is refused: seeded apart).
        axis = "vertical" if (k + DISTRIBUTIONS.index(d)) % 2 and "aseline" not in (a or "") else None
        extra = {}
        if k == 2:
            extra["spacingType"] = "standard"
        if k == 3:
            extra["layoutMarginsRelativeArrangement"] = "YES"
        if k == 4:
            extra["baselineRelativeArrangement"] = "YES"
        specs.append((axis, d, a, extra))
for k in range(0, len(specs), 3):
    seed(f"stacks-{k // 3:02d}", stacks_doc(specs[k:k + 3], f"s{k}_"))
seed("stacks-vertical-baseline", stacks_doc([("vertical", "fill", "firstBaseline", {})], "vb"))
seed("stacks-nested", storyboard(scene("vc", controller("vc", root("root", subviews(
    view("stackView", "outer", rect(20, 60, 374, 200), subviews(
        view("stackView", "inner", rect(0, 0, 374, 100), subviews(label("i1", rect(0, 0, 100, 100)), label("i2", rect(108, 0, 100, 100))),
             distribution="fillProportionally", alignment="firstBaseline", spacing="8"),
        view("scrollView", "innerScroll", rect(0, 108, 374, 92), subviews(label("i3", rect(0, 0, 300, 20))))),
        axis="vertical", distribution="fillEqually", spacing="8", layoutMarginsRelativeArrangement="YES"),
    view("stackView", "empty", rect(20, 300, 0, 0), axis="vertical", spacing="-8")),
    safe(), constraints(*pin("outer", d=20)[:3], c("empty", "top", "outer", "bottom", id="e1"), c("empty", "leading", "outer", "leading", id="e2")))))))

# Scroll views: with their guides, without (a content area made by the constraints), tables and text views.
scroller = view("scrollView", "sv", rect(0, 48, 414, 814), subviews(
    view("view", "content", rect(0, 0, 414, 1200), subviews(label("sl", rect(20, 20, 374, 1000), numberOfLines="0")))),
    el("viewLayoutGuide", {"key": "contentLayoutGuide", "id": "clg"}), el("viewLayoutGuide", {"key": "frameLayoutGuide", "id": "flg"}),
    el("viewLayoutGuide", {"key": "keyboardLayoutGuide", "id": "klg"}))
seed("scroll-guides", storyboard(scene("vc", controller("vc", root("root", subviews(scroller), safe(), constraints(
    *pin("sv", d=0), c("content", "top", "clg", "top", id="g1"), c("content", "leading", "clg", "leading", id="g2"),
    c("clg", "trailing", "content", "trailing", id="g3"), c("clg", "bottom", "content", "bottom", id="g4"),
    c("content", "width", "flg", "width", id="g5"), c("sl", "top", "content", "topMargin", id="g6"),
    c("sl", "leading", "content", "leadingMargin", id="g7"), c("content", "bottomMargin", "sl", "bottom", id="g8"),
    c("content", "height", "flg", "height", priority=250, id="g9")))))))
seed("scroll-no-guides", storyboard(scene("vc", controller("vc", root("root", subviews(
    view("scrollView", "sv", rect(0, 20, 375, 647), subviews(
        label("a", rect(16, 16, 343, 600), numberOfLines="0"),
        view("tableView", "tv", rect(0, 620, 375, 200), style="plain"),
        view("textView", "tx", rect(0, 830, 375, 40), el("string", {"key": "text"}, "Text view"), font(type="system", pointSize="14"),
             scrollEnabled="NO"),
        view("collectionView", "cv", rect(0, 880, 375, 100)))),
    ), safe(), constraints(
    *pin("sv", d=0), c("a", "top", "sv", "top", constant=16, id="h1"), c("a", "leading", "sv", "leading", constant=16, id="h2"),
    c("sv", "trailing", "a", "trailing", constant=16, id="h3"), c("a", "width", "sv", "width", constant=-32, id="h4"),
    c("a", "centerX", "sv", "centerX", id="h5"), c("tv", "top", "a", "bottom", id="h6"), c("tx", "top", "tv", "bottom", id="h7"),
    c("sv", "bottom", "cv", "bottom", id="h8"), c("cv", "leading", "sv", "leadingMargin", id="h9"))), w=375, h=667)),
    device="retina4_7"))

# Controls: each kind, images named in resources and by symbol, custom views that draw.
CONTROLS = ["button", "switch", "segmentedControl", "stepper", "activityIndicatorView", "pageControl", "pickerView", "datePicker",
            "textField", "slider", "progressView", "searchBar"]


def controls_doc(tags, images):
    vs, cs = [], []
    for k, tag in enumerate(tags):
        children = [font(type="system", pointSize="15")] if tag in ("button", "textField") else []
        vs.append(view(tag, f"k{k}", rect(20, 60 + 40 * k, 120 + k, 31), *children, progressViewStyle="bar" if tag == "progressView" else None))
        cs += [c(f"k{k}", "leading", "safe", "leading", constant=20, id=f"m{k}l"), c(f"k{k}", "top", "safe", "top", constant=12 + 40 * k, id=f"m{k}t")]
    res = ""
    if images:
        vs += [view("imageView", "im1", rect(200, 60, 64, 64), image="avatar"),
               view("imageView", "im2", rect(200, 140, 24, 24), el("imageReference", {"key": "image", "image": "star.fill", "catalog": "system"})),
               view("imageView", "im3", rect(200, 180, 24, 24), image="missing"),
               view("view", "custom", rect(200, 220, 80, 40), customClass="ChartView"),
               view("view", "plain", rect(200, 280, 80, 40))]
        cs += [c("im1", "leading", "k0", "trailing", constant=8, symbolic="YES", id="n1"), c("im1", "top", "k0", "top", id="n2"),
               c("im2", "top", "im1", "bottom", id="n3"), c("im2", "centerX", "im1", "centerX", id="n4"),
               c("custom", "top", "im2", "bottom", constant=8, id="n5"), c("custom", "leading", "im2", "leading", id="n6")]
        res = el("resources", {}, el("image", {"name": "avatar", "width": "128", "height": "128"}),
                 el("image", {"name": "star.fill", "catalog": "system", "width": "17", "height": "16"}))
    return storyboard(scene("vc", controller("vc", root("root", subviews(*vs), safe(), constraints(*cs)))), extra=res)


seed("controls-0", controls_doc(CONTROLS[:4], True))
seed("controls-1", controls_doc(CONTROLS[4:8], False))
seed("controls-2", controls_doc(CONTROLS[8:], False))

# Constraints: every attribute, relation, ratio and priority; omitted items; standard spaces.
ATTRS = ["left", "right", "top", "bottom", "leading", "trailing", "width", "height", "centerX", "centerY", "baseline", "lastBaseline",
         "firstBaseline", "leftMargin", "rightMargin", "topMargin", "bottomMargin", "leadingMargin", "trailingMargin",
         "centerXWithinMargins", "centerYWithinMargins", "notAnAttribute"]
MULTIPLIERS = ["9:16", "16:9", "0.5", "2", "1:1", "1:0", "-1", "0", "1e6", "1000001", "3:0.5", None]
PRIORITIES = ["1", "250", "750", "999", "1000", None, "251", "500"]
RELATIONS = [None, "greaterThanOrEqual", "lessThanOrEqual", "equal", "other"]
KINDS = [["left", "right", "centerX", "leftMargin", "rightMargin", "centerXWithinMargins"], ["leading", "trailing", "leadingMargin", "trailingMargin"],
         ["top", "bottom", "centerY", "baseline", "lastBaseline", "firstBaseline", "topMargin", "bottomMargin", "centerYWithinMargins"],
         ["width", "height"]]
cc = []
for k, a in enumerate(ATTRS):
    kind = next((kd for kd in KINDS if a in kd), ATTRS)
    b = kind[(k * 7 + 3) % len(kind)]
    cc.append(c("p" if k % 3 else None, a, "q" if k % 4 else "root", b, relation=RELATIONS[k % len(RELATIONS)],
                multiplier=MULTIPLIERS[k % len(MULTIPLIERS)] if kind is KINDS[-1] else MULTIPLIERS[k % 5], priority=PRIORITIES[k % len(PRIORITIES)], constant=str(k * 3 - 20),
                symbolic="YES" if k % 5 == 0 else None, id=f"a{k}"))
cc += [c("p", "width", None, None, constant=100, id="pw"), c("p", "height", "p", "width", multiplier="9:16", id="ph"),
       c("q", "top", "p", "bottom", constant=8, symbolic="YES", id="s8"), c("q", "leading", "root", "leading", constant=20, symbolic="YES", id="s20"),
       c("q", "firstBaseline", "p", "lastBaseline", constant=20, symbolic="YES", id="sb"), c("q", "top", "nowhere", "top", id="gone"),
       c("q", "top", "p", "bottom", id="nosecond", secondAttribute=None)]
seed("constraints-mismatched", storyboard(scene("vc", controller("vc", root("root", subviews(view("view", "p", rect(20, 60, 100, 56))), safe(), constraints(
    c("p", "left", "safe", "width", id="x1"), c("p", "top", "p", "leading", id="x2"), c("p", "height", "safe", "centerY", multiplier="0.5", id="x3")))))))
for k in range(0, len(cc), 12):
    seed(f"constraints-{k // 12}", storyboard(scene("vc", controller("vc", root("root", subviews(
        view("view", "p", rect(20, 60, 100, 56)), label("q", rect(20, 124, 200, 21))), safe(), constraints(*cc[k:k + 12]))))))

# Size classes: default excluded, included in a variation; a constraint's own variations.
def size_class_doc(orientation, device):
    return storyboard(scene("vc", controller("vc", root("root", subviews(
        view("view", "v1", rect(20, 60, 100, 100)),
        view("view", "v2", rect(20, 200, 100, 100),
             el("variation", {"key": "default"}, el("mask", {"key": "key"}, el("exclude", {"reference": "v2"}))),
             el("variation", {"key": "heightClass=compact"}, el("mask", {"key": "key"}, el("include", {"reference": "v2"}))))),
        safe(), constraints(
        c("v1", "top", "safe", "top", constant=20, id="w1"), c("v1", "leading", "safe", "leading", constant=20, id="w2"),
        el("constraint", {"firstItem": "v1", "firstAttribute": "width", "constant": "100", "id": "w3"},
           el("variation", {"key": "heightClass=compact", "constant": "200"}),
           el("variation", {"key": "widthClass=compact", "constant": "120", "priority": "750"}),
           el("variation", {"key": "heightClass=regular-widthClass=compact", "constant": "50"}),
           el("variation", {"key": "widthClass=regular-heightClass=compact", "priority": "250"}),
           el("variation", {"key": "idiom=mac", "constant": "1"})),
        c("v1", "height", None, None, constant=100, id="w4"), c("v2", "top", "v1", "bottom", constant=8, id="w5"),
        c("v2", "leading", "v1", "leading", id="w6"), c("v2", "width", "v1", "width", id="w7"), c("v2", "height", "v1", "height", id="w8")),
        el("variation", {"key": "default"}, el("mask", {"key": "constraints"}, el("exclude", {"reference": "w5"}), el("exclude", {"reference": "w6"}))),
        el("variation", {"key": "heightClass=compact"}, el("mask", {"key": "constraints"}, el("include", {"reference": "w5"}))),
        el("variation", {"key": "heightClass=regular-widthClass=compact"}, el("mask", {"key": "constraints"}, el("include", {"reference": "w6"}),
                                                                             el("exclude", {"reference": "w8"}))),
        el("variation", {"key": "widthClass=compact"}, el("mask", {"key": "constraints"}, el("exclude", {"reference": "w7"}))),
        el("variation", {"key": "heightClass"}, el("mask", {"key": "constraints"}, el("exclude", {})))))),
        device=device, orientation=orientation)


seed("size-classes-portrait", size_class_doc("portrait", "retina6_1"))
seed("size-classes-landscape", size_class_doc("landscape", "retina6_5"))
seed("size-classes-ipad", size_class_doc("portrait", "ipad12_9rounded"))
seed("size-classes-no-device", size_class_doc("portrait", None))

# Frames: autoresizing masks, fixed frames, Xcode 8's frame insets.
MASKS = [{}, {"widthSizable": "YES"}, {"flexibleMinX": "YES", "flexibleMaxY": "YES"}, {"heightSizable": "YES", "flexibleMinY": "YES"},
         {"flexibleMinX": "YES", "widthSizable": "YES", "flexibleMaxX": "YES", "flexibleMinY": "YES", "heightSizable": "YES", "flexibleMaxY": "YES"},
         {"flexibleMaxX": "YES"}]
ar = []
for k, m in enumerate(MASKS):
    ar.append(view("view", f"ar{k}", rect(10 + k, 20 + 60 * k, 100 - k, 50),
                   *([el("autoresizingMask", dict({"key": "autoresizingMask"}, **m))] if m else []), translatesAutoresizingMaskIntoConstraints=None))
ar.append(view("view", "fixed", rect(200, 20, 80, 80), fixedFrame="YES"))
ar.append(view("view", "fixedNamed", rect(200, 120, 80, 80), fixedFrame="YES"))
ar.append(view("view", "outside", rect(-50, 900, 600, 10), el("autoresizingMask", {"key": "autoresizingMask", "widthSizable": "YES"}),
               translatesAutoresizingMaskIntoConstraints=None))
seed("autoresizing", storyboard(scene("vc", controller("vc", root("root", subviews(*ar), safe(), constraints(
    c("fixedNamed", "width", None, None, constant=80, id="fx")))))))
seed("frame-insets", storyboard(scene("vc", controller("vc", el("view", {"key": "view", "id": "root"},
    el("frame", {"key": "frameInset", "width": "375", "height": "667"}), subviews(
        view("view", "f1", el("frame", {"key": "frameInset", "minX": "16", "maxX": "16", "minY": "20", "height": "44"})),
        view("view", "f2", el("frame", {"key": "frameInset", "maxX": "20", "maxY": "20", "width": "100", "height": "50"}),
             translatesAutoresizingMaskIntoConstraints=None),
        view("view", "f3", el("frame", {"key": "frameInset", "minX": "400", "maxX": "400", "minY": "700", "maxY": "700"})),
        view("view", "f4", el("frame", {"key": "frameInset"}), subviews(
            view("label", "f5", el("frame", {"key": "frameInset", "minX": "8", "minY": "8", "width": "40", "height": "20"}), text="x")))),
    constraints(c("f1", "top", "root", "top", constant=20, id="fi1"), c("f4", "top", "f1", "bottom", id="fi2"))))), device=None, tools="11201"))

# Margins and safe areas.
seed("margins", storyboard(scene("vc", controller("vc", root("root", subviews(
    view("view", "m1", rect(0, 0, 414, 200), el("edgeInsets", {"key": "layoutMargins", "top": "10", "left": "30", "bottom": "5", "right": "-4"}),
         subviews(view("view", "m2", rect(10, 10, 300, 100), subviews(label("m3", rect(8, 8, 100, 20))), preservesSuperviewLayoutMargins="YES",
                       insetsLayoutMarginsFromSafeArea="NO")), insetsLayoutMarginsFromSafeArea="YES"),
    view("view", "m4", rect(0, 700, 414, 196), el("directionalEdgeInsets", {"key": "directionalLayoutMargins", "top": "8", "leading": "24", "bottom": "8", "trailing": "0"}),
         preservesSuperviewLayoutMargins="YES")),
    el("edgeInsets", {"key": "layoutMargins", "top": "0", "left": "0", "bottom": "0", "right": "0"}), safe(), constraints(
    c("m1", "top", "root", "top", id="mm1"), c("m1", "leading", "root", "leading", id="mm2"), c("m1", "trailing", "root", "trailing", id="mm3"),
    c("m2", "top", "m1", "topMargin", id="mm4"), c("m2", "leading", "m1", "leadingMargin", id="mm5"),
    c("m3", "leading", "m2", "leadingMargin", id="mm6"), c("m3", "top", "m2", "topMargin", id="mm7"),
    c("m2", "bottomMargin", "m3", "bottom", id="mm8"), c("m4", "bottom", "root", "bottom", id="mm9"),
    c("m4", "leading", "root", "leadingMargin", id="mm10"), c("m4", "trailing", "root", "trailingMargin", id="mm11"),
    c("m4", "top", "safe", "bottom", constant=-160, id="mm12"))), insetsLayoutMarginsFromSafeArea="NO")), device="retina6_72", tools="24128"))

# Intrinsic sizes: stated, placeholder, infinite.
seed("intrinsic", storyboard(scene("vc", controller("vc", root("root", subviews(
    view("view", "i1", rect(20, 60, 100, 40), el("size", {"key": "intrinsicContentSize", "width": "100", "height": "40"})),
    view("view", "i2", rect(20, 110, 50, 50), placeholderIntrinsicWidth="infinite", placeholderIntrinsicHeight="50"),
    view("view", "i3", rect(20, 170, 70, 30), placeholderIntrinsicWidth="70", placeholderIntrinsicHeight="infinite"),
    view("label", "i4", rect(20, 210, 60, 20), el("size", {"key": "intrinsicContentSize", "width": "60"}), font(type="system", pointSize="17"), text="sized"),
    view("view", "i5", rect(20, 240, 0, 0), el("size", {"key": "intrinsicContentSize", "width": "0", "height": "0"}),
         horizontalHuggingPriority="1000", verticalHuggingPriority="1", horizontalCompressionResistancePriority="0",
         verticalCompressionResistancePriority="1000")),
    safe(), constraints(*[c(f"i{k}", "leading", "safe", "leading", constant=20, id=f"il{k}") for k in range(1, 6)],
                        *[c(f"i{k}", "top", "safe", "top", constant=12 + 50 * k, id=f"it{k}") for k in range(1, 6)]))))))

# Bars: navigation and tab bar controllers, segues, large titles, opaque bars, simulated metrics.
def vc_with_label(id, *extra, **a):
    return controller(id, root(f"{id}r", subviews(label(f"{id}l", rect(20, 100, 200, 21))), safe(f"{id}s"),
                                constraints(c(f"{id}l", "top", f"{id}s", "top", constant=8, id=f"{id}c1"),
                                            c(f"{id}l", "leading", f"{id}s", "leading", constant=20, id=f"{id}c2"))), *extra, **a)


def nav(id, root_id, bar_height="44", **bar):
    return el("navigationController", {"id": id},
              el("navigationBar", dict({"key": "navigationBar", "contentMode": "scaleToFill", "id": f"{id}b"}, **bar), rect(0, 48, 414, bar_height)),
              el("connections", {}, el("segue", {"destination": root_id, "kind": "relationship", "relationship": "rootViewController", "id": f"{id}s"})))


seed("bars-navigation", storyboard(
    scene("nav", nav("nav", "a", largeTitles="YES")),
    scene("a", vc_with_label("a", el("navigationItem", {"key": "navigationItem", "title": "A", "id": "ani"}),
                             el("connections", {}, el("segue", {"destination": "b", "kind": "show", "id": "ab"})))),
    scene("b", vc_with_label("b", el("navigationItem", {"key": "navigationItem", "largeTitleDisplayMode": "never", "id": "bni"}),
                             el("connections", {}, el("segue", {"destination": "c", "kind": "push", "id": "bc"})))),
    scene("c", vc_with_label("c", el("connections", {}, el("segue", {"destination": "a", "kind": "show", "id": "ca"})))),
    tools="24128"))
seed("bars-opaque-tabs", storyboard(
    scene("tab", el("tabBarController", {"id": "tab"}, el("tabBar", {"key": "tabBar", "id": "tb"}, rect(0, 0, 1000, 1000)),
                    el("connections", {}, el("segue", {"destination": "nav", "kind": "relationship", "relationship": "viewControllers", "id": "t1"}),
                       el("segue", {"destination": "d", "kind": "relationship", "relationship": "viewControllers", "id": "t2"})))),
    scene("nav", nav("nav", "a", bar_height="54", translucent="NO")),
    scene("a", vc_with_label("a", misplaced="YES").replace('id="ar"', 'id="ar" misplaced="YES"').replace('y="0" width="414" height="896"', 'y="102" width="414" height="794"')),
    scene("d", vc_with_label("d", extendedLayoutIncludesOpaqueBars="YES")),
    scene("hidden", el("navigationController", {"id": "hidden", "navigationBarHidden": "YES"}, el("connections", {},
          el("segue", {"destination": "e", "kind": "relationship", "relationship": "rootViewController", "id": "h1"})))),
    scene("e", vc_with_label("e"))))
seed("bars-simulated", storyboard(
    scene("s1", vc_with_label("s1", el("simulatedNavigationBarMetrics", {"key": "simulatedTopBarMetrics", "prompted": "YES"}),
                              el("simulatedTabBarMetrics", {"key": "simulatedBottomBarMetrics"}))),
    scene("s2", vc_with_label("s2", el("nil", {"key": "simulatedTopBarMetrics"}), el("simulatedToolbarMetrics", {"key": "simulatedBottomBarMetrics"}))),
    scene("s3", vc_with_label("s3", el("simulatedNavigationBarMetrics", {"key": "simulatedTopBarMetrics"}), el("nil", {"key": "simulatedBottomBarMetrics"}),
                              el("nil", {"key": "simulatedStatusBarMetrics"}))),
    device="retina5_9", orientation="landscape", tools="14490.70"))

# iOS 7-10: top and bottom layout guides, no device, a root below the bars.
seed("legacy-guides", storyboard(scene("vc", controller("vc", el("view", {"key": "view", "id": "root"}, rect(0, 64, 320, 568), subviews(
    label("l", rect(16, 20, 288, 21)), view("view", "footer", rect(0, 455, 320, 49))), constraints(
    c("l", "top", "tlg", "bottom", constant=20, id="lg1"), c("blg", "top", "footer", "bottom", id="lg2"), c("l", "leading", "root", "leadingMargin", id="lg3"),
    c("footer", "leading", "root", "leading", id="lg4"), c("footer", "width", "root", "width", id="lg5"), c("footer", "height", None, None, constant=49, id="lg6"))),
    el("layoutGuides", {}, el("viewControllerLayoutGuide", {"type": "top", "id": "tlg"}), el("viewControllerLayoutGuide", {"type": "bottom", "id": "blg"})),
    el("simulatedNavigationBarMetrics", {"key": "simulatedTopBarMetrics"}), el("simulatedTabBarMetrics", {"key": "simulatedBottomBarMetrics"}))),
    device=None, tools="6254"))
seed("legacy-no-status-bar", storyboard(scene("vc", controller("vc", root("root", subviews(label("l", rect(16, 0, 288, 21))), w=320, h=480),
    el("layoutGuides", {}, el("viewControllerLayoutGuide", {"type": "top", "id": "tlg"})), el("nil", {"key": "simulatedStatusBarMetrics"}))),
    device=None, tools="5056"))

# Visual effect views, hidden and misplaced views, a scene without a frame.
seed("effects-hidden", storyboard(
    scene("vc", controller("vc", root("root", subviews(
        el("visualEffectView", {"opaque": "NO", "translatesAutoresizingMaskIntoConstraints": "NO", "id": "fx"}, rect(0, 0, 414, 100),
           el("view", {"key": "contentView", "id": "fxc"}, rect(0, 0, 414, 100), subviews(label("fxl", rect(20, 40, 100, 21)))),
           el("blurEffect", {"style": "systemMaterial"})),
        view("view", "hid", rect(0, 120, 100, 100), hidden="YES"),
        view("view", "amb", rect(0, 240, 100, 100), misplaced="YES", ambiguous="YES")), safe(), constraints(
        c("fx", "top", "root", "top", id="e1"), c("fx", "leading", "root", "leading", id="e2"), c("fx", "trailing", "root", "trailing", id="e3"),
        c("fx", "bottom", "safe", "top", constant=52, id="e4"), c("hid", "top", "fx", "bottom", constant=20, id="e5"),
        c("amb", "top", "hid", "bottom", id="e6"))))),
    ))
seed("root-without-frame", storyboard(scene("noframe", controller("noframe", el("view", {"key": "view", "id": "nf"})))))
seed("root-without-id", storyboard(scene("noid", controller("noid", el("view", {"key": "view"}, rect(0, 0, 10, 10))))))

# Devices and runtimes.
seed("device-landscape-ipad", xib(view("view", "v", rect(0, 0, 1366, 1024), subviews(label("l", rect(0, 0, 10, 10))), safe("s"),
                                       constraints(c("l", "top", "s", "top", id="d1")), translatesAutoresizingMaskIntoConstraints=None),
                                  device="ipad12_9rounded", orientation="landscape"))
seed("device-unknown", xib(view("view", "v", rect(0, 0, 100, 100), translatesAutoresizingMaskIntoConstraints=None), device="nosuchdevice"))
seed("runtime-tvos", storyboard(scene("vc", controller("vc", root("root", subviews(label("l", rect(90, 60, 300, 50))), safe(), w=1920, h=1080))),
                                device="appleTV", runtime="AppleTV"))
seed("runtime-macos", storyboard(scene("vc", controller("vc", root("root"))), runtime="MacOSX.Cocoa"))
seed("not-a-document", '<?xml version="1.0"?>\n<plist version="1.0"><dict/></plist>\n')
seed("toolsversions", xib(view("view", "v", rect(0, 0, 414, 896), translatesAutoresizingMaskIntoConstraints=None), tools="32700.99.1234"))

# Numbers a document should not hold, each in one attribute of a small document.
HOSTILE = ["0", "-0", "-1", "0.0", "NaN", "nan", "inf", "-inf", "infinity", "1e308", "-1e308", "0x1p3000", "", "abc", "9:0",
           "1" * 40, "1e-320", "5e-324", "+3", " 3", "3 ", "1,5", "0x10", "1_000"]
PLACES = [
    ("pointSize", lambda v: label("l", rect(0, 0, 10, 10), fd=font(type="system", pointSize=v))),
    ("numberOfLines", lambda v: label("l", rect(0, 0, 10, 10), numberOfLines=v)),
    ("rect-width", lambda v: view("view", "l", rect(0, 0, v, 10))),
    ("rect-x", lambda v: view("view", "l", rect(v, 0, 10, 10), translatesAutoresizingMaskIntoConstraints=None)),
    ("frameInset", lambda v: view("view", "l", el("frame", {"key": "frameInset", "minX": v, "maxY": "1"}))),
    ("constant", lambda v: view("view", "l", rect(0, 0, 10, 10), constraints(c("l", "width", None, None, constant=v, id="k")))),
    ("priority", lambda v: view("view", "l", rect(0, 0, 10, 10), constraints(c("l", "width", None, None, constant=1, priority=v, id="k")))),
    ("multiplier", lambda v: view("view", "l", rect(0, 0, 10, 10), constraints(c("l", "width", "l", "height", multiplier=v, id="k")))),
    ("ratio", lambda v: view("view", "l", rect(0, 0, 10, 10), constraints(c("l", "width", "l", "height", multiplier=f"{v}:{v}", id="k")))),
    ("variation", lambda v: view("view", "l", rect(0, 0, 10, 10), constraints(el("constraint", {"firstItem": "l", "firstAttribute": "width", "id": "k"},
                                                                                el("variation", {"key": "widthClass=compact", "constant": v, "priority": v}))))),
    ("spacing", lambda v: view("stackView", "l", rect(0, 0, 10, 10), subviews(view("view", "m", rect(0, 0, 1, 1))), spacing=v)),
    ("hugging", lambda v: view("view", "l", rect(0, 0, 10, 10), horizontalHuggingPriority=v, verticalCompressionResistancePriority=v)),
    ("placeholder", lambda v: view("view", "l", rect(0, 0, 10, 10), placeholderIntrinsicWidth=v, placeholderIntrinsicHeight=v)),
    ("intrinsic", lambda v: view("view", "l", rect(0, 0, 10, 10), el("size", {"key": "intrinsicContentSize", "width": v, "height": v}))),
    ("edgeInsets", lambda v: view("view", "l", rect(0, 0, 10, 10), el("edgeInsets", {"key": "layoutMargins", "top": v, "left": v, "bottom": v, "right": v}))),
    ("image", lambda v: view("imageView", "l", rect(0, 0, 10, 10), image="i")),
    ("directionalEdgeInsets", lambda v: view("view", "l", rect(0, 0, 10, 10), el("directionalEdgeInsets", {"key": "directionalLayoutMargins", "leading": v}))),
]


def hostile_doc(place, value, k):
    body = place(value)
    res = el("resources", {}, el("image", {"name": "i", "width": value, "height": "1"})) if body.startswith("<imageView") else ""
    return xib(view("view", "v", rect(0, 0, 100, 100), subviews(body), translatesAutoresizingMaskIntoConstraints=None), resources=res)


k = 0
for pname, place in PLACES:
    for value in HOSTILE:
        # Each place with a few of the values (the fuzzer's dictionary has all of them).
        if (HOSTILE.index(value) + PLACES.index((pname, place))) % 5 == 0 or value in ("NaN", "1e308", "0.0"):
            seed(f"hostile-{pname}-{HOSTILE.index(value):02d}", hostile_doc(place, value, k))
            k += 1
for value in ["1e308", "nan", "-1", "", "99999999999999999999", "24128.5"]:
    seed(f"hostile-toolsVersion-{value or 'empty'}", xib(view("view", "v", rect(0, 0, 414, 896), translatesAutoresizingMaskIntoConstraints=None),
                                                         tools=value))
# XML that is not IB's: a DTD, an entity, a character XML refuses, deep nesting, a lone root.
seed("xml-dtd", '<?xml version="1.0"?>\n<!DOCTYPE document [<!ENTITY a "aaaa">]>\n<document>&a;</document>\n')
seed("xml-noncharacter", xib(label("l", rect(0, 0, 10, 10), text="a&#xFFFE;b")))
seed("xml-control", xib(label("l", rect(0, 0, 10, 10), text="a&#x1;b")))
seed("xml-deep", xib(("<v>" * 270) + ("</v>" * 270)))
seed("xml-empty-document", '<document/>')


# The dictionary: IB's element and attribute names and values, and hostile numbers.
ELEMENTS = ["document", "device", "scenes", "scene", "objects", "viewController", "tableViewController", "collectionViewController",
            "navigationController", "tabBarController", "view", "subviews", "constraints", "constraint", "rect", "frame", "size", "label",
            "button", "textField", "textView", "imageView", "imageReference", "scrollView", "tableView", "collectionView",
            "tableViewCell", "tableViewCellContentView", "collectionViewCell", "collectionViewCellContentView", "stackView",
            "visualEffectView", "navigationBar", "navigationItem", "tabBar", "fontDescription", "string", "attributedString",
            "fragment", "attributes", "autoresizingMask", "edgeInsets", "directionalEdgeInsets", "viewLayoutGuide", "layoutGuides",
            "viewControllerLayoutGuide", "variation", "mask", "include", "exclude", "segue", "connections", "resources", "image",
            "nil", "simulatedNavigationBarMetrics", "simulatedTabBarMetrics", "simulatedToolbarMetrics", "prototypes", "cells",
            "switch", "slider", "segmentedControl", "stepper", "activityIndicatorView", "pageControl", "pickerView", "datePicker",
            "progressView", "searchBar", "placeholder"]
ATTRIBUTES = ["id", "key", "type", "version", "toolsVersion", "targetRuntime", "orientation", "x", "y", "width", "height", "minX", "maxX",
              "minY", "maxY", "firstItem", "firstAttribute", "secondItem", "secondAttribute", "relation", "multiplier", "constant",
              "priority", "symbolic", "text", "numberOfLines", "pointSize", "style", "weight", "name", "family", "axis",
              "distribution", "alignment", "spacing", "spacingType", "layoutMarginsRelativeArrangement", "baselineRelativeArrangement",
              "translatesAutoresizingMaskIntoConstraints", "fixedFrame", "misplaced", "ambiguous", "hidden", "customClass",
              "horizontalHuggingPriority", "verticalHuggingPriority", "horizontalCompressionResistancePriority",
              "verticalCompressionResistancePriority", "placeholderIntrinsicWidth", "placeholderIntrinsicHeight",
              "insetsLayoutMarginsFromSafeArea", "preservesSuperviewLayoutMargins", "top", "left", "bottom", "right", "leading",
              "trailing", "flexibleMinX", "flexibleMaxX", "flexibleMinY", "flexibleMaxY", "widthSizable", "heightSizable",
              "reference", "destination", "kind", "relationship", "navigationBarHidden", "largeTitles", "translucent",
              "largeTitleDisplayMode", "extendedLayoutIncludesOpaqueBars", "prompted", "progressViewStyle", "scrollEnabled",
              "detailTextLabel", "textLabel", "content", "image", "catalog"]
VALUES = ["view", "frame", "frameInset", "safeArea", "contentLayoutGuide", "frameLayoutGuide", "contentView", "fontDescription",
          "intrinsicContentSize", "layoutMargins", "directionalLayoutMargins", "autoresizingMask", "attributedText", "navigationBar",
          "navigationItem", "simulatedTopBarMetrics", "simulatedBottomBarMetrics", "simulatedStatusBarMetrics", "default",
          "heightClass=compact", "widthClass=compact", "heightClass=regular-widthClass=compact", "constraints", "vertical",
          "horizontal", "infinite", "standard", "YES", "NO", "greaterThanOrEqual", "lessThanOrEqual", "relationship",
          "rootViewController", "viewControllers", "show", "push", "never", "bar", "top", "bottom", "system", "boldSystem",
          "italicSystem", "iOS.CocoaTouch", "AppleTV", "retina6_1", "retina4_7", "ipad12_9rounded", "landscape", "portrait"]
VALUES += ALIGNMENTS[1:] + DISTRIBUTIONS[1:] + STYLES + WEIGHTS + CELL_STYLES + ATTRS[:-1]
NUMBERS = ["0", "-0", "-1", "0.0", "NaN", "nan", "inf", "-inf", "1e308", "-1e308", "0x1p3000", "", "abc", "9:0", "9:16", "1:0", "5e-324",
           "1000", "999", "1e300", "10000001", "-10000001", "1" * 40, "9" * 320, "0." + "0" * 330 + "1"]


def write_dictionary():
    os.makedirs(os.path.dirname(DICT), exist_ok=True)
    seen = set()
    lines = ["# The ib target's dictionary: written by Fuzz/make_ib_seeds.py."]

    def add(token):
        if token in seen:
            return
        seen.add(token)
        escaped = "".join(ch if 0x20 <= ord(ch) < 0x7F and ch not in '"\\' else f"\\x{ord(ch):02x}" for ch in token)
        lines.append(f'"{escaped}"')

    for e in ELEMENTS:
        add(f"<{e}"), add(f"</{e}>")
    for a in ATTRIBUTES:
        add(f' {a}="')
    for v in VALUES:
        add(f'"{v}"')
    for n in NUMBERS:
        add(f'"{n}"')
    add('<?xml version="1.0" encoding="UTF-8"?>')
    add("/>")
    add("&#x1F1EB;&#x1F1F7;")
    add("&#x200D;")
    add("&#xFFFE;")
    with open(DICT, "w", encoding="ascii") as f:
        f.write("\n".join(lines) + "\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.startswith(PREFIX):
            os.remove(os.path.join(OUT, f))
    for name, text in SEEDS.items():
        with open(os.path.join(OUT, PREFIX + name), "w", encoding="utf-8") as f:
            f.write(text)
    total = sum(len(t.encode()) for t in SEEDS.values())
    print(f"{len(SEEDS)} seeds, {total} bytes in {OUT}")
    write_dictionary()


if __name__ == "__main__":
    main()
