#!/usr/bin/env python3
"""Writes the mask-image cases (cases/*.json) of tst_masks: icons and alpha PNGs used as
masks the way @vercel/og and takumi users write them. Run once; then
scripts/chromium-oracle tests/render/masks/cases/*.json draws the references."""
import base64, json, math, os, struct, urllib.parse, zlib

HERE = os.path.dirname(os.path.abspath(__file__))

# Heroicons 2 solid "heart" and "bolt", lucide "star" (stroked): real icon sets.
HEART = ("M11.645 20.91l-.007-.003-.022-.012a15.247 15.247 0 01-.383-.218 25.18 25.18 0 01-4.244-3.17"
         "C4.688 15.36 2.25 12.174 2.25 8.25 2.25 5.322 4.714 3 7.688 3A5.5 5.5 0 0112 5.052 5.5 5.5 0 0116.313 3"
         "c2.973 0 5.437 2.322 5.437 5.25 0 3.925-2.438 7.111-4.739 9.256a25.175 25.175 0 01-4.244 3.17 15.247 "
         "15.247 0 01-.383.219l-.022.012-.007.004-.003.001a.752.752 0 01-.704 0l-.003-.001z")
BOLT = ("M14.615 1.595a.75.75 0 01.359.852L12.982 9.75h7.268a.75.75 0 01.548 1.262l-10.5 11.25a.75.75 0 "
        "01-1.272-.71l1.992-7.302H3.75a.75.75 0 01-.548-1.262l10.5-11.25a.75.75 0 01.913-.143z")
STAR = ("M11.525 2.295a.53.53 0 0 1 .95 0l2.31 4.679a2.123 2.123 0 0 0 1.595 1.16l5.166.756a.53.53 0 0 1 "
        ".294.904l-3.736 3.638a2.123 2.123 0 0 0-.611 1.878l.882 5.14a.53.53 0 0 1-.771.56l-4.618-2.428a2.122 "
        "2.122 0 0 0-1.973 0L6.396 21.01a.53.53 0 0 1-.77-.56l.881-5.139a2.122 2.122 0 0 0-.611-1.879L2.16 "
        "9.795a.53.53 0 0 1 .294-.906l5.165-.755a2.122 2.122 0 0 0 1.597-1.16z")


def svg_utf8(path, stroke=False):
    """The form people paste: url("data:image/svg+xml;utf8,<svg ...>") with single quotes."""
    paint = "fill='none' stroke='black' stroke-width='2' stroke-linejoin='round'" if stroke else "fill='black'"
    return ("url(\"data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24'>"
            f"<path {paint} d='{path}'/></svg>\")")


def svg_encoded(path, size=None):
    dims = f' width="{size}" height="{size}"' if size else ""
    svg = f'<svg xmlns="http://www.w3.org/2000/svg"{dims} viewBox="0 0 24 24"><path d="{path}"/></svg>'
    return "url(data:image/svg+xml," + urllib.parse.quote(svg, safe="") + ")"


def png(width, height, alpha):
    """An RGBA PNG, black with alpha(x, y) in 0..255."""
    raw = b"".join(b"\0" + b"".join(bytes((0, 0, 0, alpha(x, y))) for x in range(width)) for y in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def png_url(data):
    return "url(data:image/png;base64," + base64.b64encode(data).decode() + ")"


SOFT_DOT = png_url(png(48, 48, lambda x, y: max(0, min(255, int(255 * (1.4 - math.hypot(x - 23.5, y - 23.5) / 17))))))
STRIPES = png_url(png(32, 32, lambda x, y: 255 if (x + y) % 16 < 8 else 40))


def box(style, children=None):
    props = {"style": style}
    if children is not None:
        props["children"] = children
    return {"type": "div", "props": props}


def card(children, height=260):
    return box({"width": 720, "height": height, "backgroundColor": "#f8fafc", "padding": 24, "gap": 24,
                "boxSizing": "border-box", "alignItems": "center", "flexWrap": "wrap",
                "fontFamily": "DejaVu Sans"}, children)


CASES = {
    # An SVG icon as a mask over a coloured div: the satori/takumi idiom.
    "mask-svg-icons": card([
        box({"width": 96, "height": 96, "backgroundColor": "#f00", "maskImage": svg_utf8(HEART),
             "maskSize": "contain"}),
        box({"width": 140, "height": 90, "backgroundColor": "#2563eb", "WebkitMaskImage": svg_utf8(STAR, True),
             "WebkitMaskSize": "contain", "WebkitMaskRepeat": "no-repeat", "WebkitMaskPosition": "center"}),
        box({"width": 150, "height": 100, "backgroundImage": "linear-gradient(135deg, #f59e0b, #db2777)",
             "maskImage": svg_encoded(BOLT), "maskSize": "36px 36px", "maskRepeat": "repeat"}),
        box({"width": 160, "height": 64, "backgroundColor": "#16a34a", "maskImage": svg_encoded(HEART),
             "maskRepeat": "repeat-x"}),
        box({"width": 100, "height": 100, "backgroundColor": "#7c3aed", "maskImage": svg_encoded(STAR, 24),
             "maskRepeat": "no-repeat", "maskPosition": "right bottom"}),
    ]),
    # PNG alpha masks: a soft dot and stripes, over gradients and over content.
    "mask-png-alpha": card([
        box({"width": 160, "height": 160, "backgroundImage": "linear-gradient(#0ea5e9, #1e3a8a)",
             "maskImage": SOFT_DOT, "maskSize": "100% 100%"}),
        box({"width": 200, "height": 120, "backgroundColor": "#0f172a", "borderRadius": 16,
             "maskImage": STRIPES, "maskSize": "24px", "color": "#fde68a", "fontSize": 40, "fontWeight": 700,
             "alignItems": "center", "justifyContent": "center"}, "Sale"),
        box({"width": 220, "height": 90, "backgroundColor": "#e11d48", "maskImage": SOFT_DOT,
             "maskRepeat": "repeat-x", "maskPosition": "0 50%", "maskSize": "auto"}),
    ]),
    # Several layers (mask-composite add), a gradient layer with an icon, positions in px.
    "mask-layers": card([
        box({"width": 180, "height": 180, "backgroundColor": "#ea580c",
             "maskImage": svg_encoded(BOLT) + ", linear-gradient(to right, black, transparent)",
             "maskSize": "60% 60%, 100% 100%", "maskRepeat": "no-repeat", "maskPosition": "20px 20px, 0 0"}),
        box({"width": 240, "height": 140, "backgroundImage": "linear-gradient(90deg, #14b8a6, #6366f1)",
             "padding": 16, "borderRadius": 24, "border": "6px solid #0f172a",
             "WebkitMaskImage": "linear-gradient(to bottom, black 40%, transparent)", "color": "white",
             "fontSize": 28}, "Fades out"),
        box({"width": 180, "height": 180, "backgroundColor": "#0891b2",
             "maskImage": svg_utf8(STAR) + ", " + SOFT_DOT,
             "maskSize": "cover, 40px 40px", "maskPosition": "center, 0 0"}),
    ], height=440),
}

os.makedirs(os.path.join(HERE, "cases"), exist_ok=True)
for name, tree in CASES.items():
    with open(os.path.join(HERE, "cases", name + ".json"), "w", encoding="utf-8") as f:
        json.dump(tree, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(name)
