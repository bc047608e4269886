#!/usr/bin/env python3
"""Seeds of the `text` fuzz target (Fuzz/Corpus/text) and its dictionary (Fuzz/Dictionaries/text.dict).

From Debian's unicode-data (/usr/share/unicode, `apt-get install unicode-data`):
- every string of the break test files (LineBreakTest, GraphemeBreakTest, WordBreakTest,
  SentenceBreakTest), several a file, one a line (a newline is a paragraph to the measurer, so
  each string is broken on its own);
- random strings per line-break class (LineBreak.txt) and per general category
  (UnicodeData.txt), each class's characters among letters, spaces and one another;
- what real text holds and breakers have stumbled on: emoji and their ZWJ sequences, flags
  (regional-indicator pairs, tag sequences), skin tones, keycaps, variation selectors,
  noncharacters, private use, unpaired combining marks, controls, bidi controls, line and
  paragraph separators, Thai, Lao, Khmer, Myanmar, CJK, Hangul jamo, and bytes that are not
  UTF-8 (the target replaces them).

Deterministic (a fixed seed): running it again writes the same files.
Run: python3 Fuzz/make_text_seeds.py   (it replaces the generated files of Fuzz/Corpus/text)
"""
import os
import random

UNICODE = "/usr/share/unicode"
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "Corpus", "text")
DICT = os.path.join(HERE, "Dictionaries", "text.dict")
PER_FILE = 60  # test strings a seed file
PREFIX = "gen-"  # the files this script writes (others in the folder, findings, are kept)
rng = random.Random(60)


def encodable(cp):
    return not (0xD800 <= cp <= 0xDFFF)


def test_strings(name):
    """Each line's code points as a string; a lone surrogate as the bytes CESU-8 gives it
    (not UTF-8: the target replaces them, as a request's invalid bytes would be)."""
    out = []
    with open(os.path.join(UNICODE, "auxiliary", name), encoding="utf-8") as f:
        for line in f:
            body = line.split("#", 1)[0].split()
            cps = [int(t, 16) for t in body if t not in ("÷", "×")]
            if not cps:
                continue
            b = bytearray()
            for cp in cps:
                if encodable(cp):
                    b += chr(cp).encode("utf-8")
                else:
                    b += bytes([0xED, 0xA0 | ((cp >> 6) & 0x1F), 0x80 | (cp & 0x3F)])
            out.append(bytes(b))
    return out


def ranges(path, field):
    """(first, last, value) of a UCD file of `cp[..cp];value` lines."""
    out = []
    with open(os.path.join(UNICODE, path), encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = [p.strip() for p in line.split(";")]
            span, value = parts[0], parts[field]
            a, _, b = span.partition("..")
            out.append((int(a, 16), int(b or a, 16), value))
    return out


def general_categories():
    """(first, last, category) from UnicodeData.txt, its First/Last pairs as ranges."""
    out, first = [], None
    with open(os.path.join(UNICODE, "UnicodeData.txt"), encoding="utf-8") as f:
        for line in f:
            fields = line.split(";")
            cp, name, gc = int(fields[0], 16), fields[1], fields[2]
            if name.endswith(", First>"):
                first = cp
            elif name.endswith(", Last>"):
                out.append((first, cp, gc))
            else:
                out.append((cp, cp, gc))
    return out


def pick(spans, n):
    """n code points drawn from spans (weighted by their size), surrogates left out."""
    total = sum(b - a + 1 for a, b in spans)
    out = []
    while len(out) < n:
        k = rng.randrange(total)
        for a, b in spans:
            if k <= b - a:
                if encodable(a + k):
                    out.append(a + k)
                break
            k -= b - a + 1
    return out


FILLER = [ord(c) for c in "abc xyz 12 "] + [0x20, 0x20]


def mixed(cps, length):
    """A string of `cps` among filler (letters, digits, spaces), and runs of them alone."""
    s = []
    for _ in range(length):
        r = rng.random()
        if r < 0.55:
            s.append(rng.choice(cps))
        elif r < 0.9:
            s.append(rng.choice(FILLER))
        else:
            s += [rng.choice(cps)] * rng.randint(2, 5)
    return "".join(chr(c) for c in s)


def write(name, data):
    with open(os.path.join(OUT, PREFIX + name), "wb") as f:
        f.write(data)


def chars(*cps):
    return "".join(chr(c) for c in cps)


RI = [0x1F1E6 + i for i in range(26)]


def flag(a, b):
    return chars(RI[ord(a) - 65], RI[ord(b) - 65])


ZWJ, VS15, VS16 = chr(0x200D), chr(0xFE0E), chr(0xFE0F)
TONES = [chr(c) for c in range(0x1F3FB, 0x1F400)]
TAGGED = chr(0x1F3F4) + "".join(chr(0xE0000 + ord(c)) for c in "gbeng") + chr(0xE007F)

SPECIAL = {
    # Emoji: pictographs, with skin tones, joined, presented as text or emoji.
    "emoji": "".join(chr(c) for c in pick([(0x1F300, 0x1F64F), (0x1F680, 0x1F6FF), (0x1F900, 0x1F9FF), (0x2600, 0x27BF)], 40)),
    "emoji-tones": " ".join(chr(0x1F44B) + t for t in TONES) + " " + chr(0x1F44B) + TONES[0] + TONES[1] + " " + TONES[2] + "x",
    "emoji-zwj": " ".join([
        ZWJ.join(chr(c) for c in (0x1F468, 0x1F469, 0x1F467, 0x1F466)),
        chr(0x1F3F3) + VS16 + ZWJ + chr(0x1F308),
        chr(0x1F469) + TONES[3] + ZWJ + chr(0x1F4BB),
        chr(0x1F9D1) + ZWJ + chr(0x1F91D) + ZWJ + chr(0x1F9D1),
        ZWJ + ZWJ + "a" + ZWJ, chr(0x1F468) + ZWJ, ZWJ + chr(0x1F469), "a" + ZWJ + "b",
    ]) * 3,
    "emoji-presentation": "".join(c + v for c in ["\u2764", "\u263a", "#", "1", "\u00a9", "a", "\u2600"] for v in (VS15, VS16, VS16 + VS16, VS15 + VS16)),
    "keycaps": " ".join(d + VS16 + "\u20e3" for d in "0123456789#*") + " \u20e3\u20e3 x\u20e3",
    "flags": " ".join(flag(a, b) for a, b in ["FR", "DE", "JP", "US", "GB", "UA", "BR", "IN", "ZZ"]) + " " + chars(*RI[:9]) + " #" + chr(RI[5]),
    "flags-run": "".join(flag(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) for _ in range(30)) + chr(RI[0]),
    "flags-tagged": TAGGED + " " + TAGGED + TAGGED + " " + chr(0x1F3F4) + chr(0xE007F) + " " + "".join(chr(c) for c in range(0xE0020, 0xE0080)),
    "regional-alone": " ".join(chr(c) for c in RI) + "\n" + chars(*RI),
    # Variation selectors (standard, ideographic, Mongolian) on letters, CJK and nothing.
    "variation-selectors": "".join(rng.choice("a\u845b\u2764 ") + chr(rng.choice(list(range(0xFE00, 0xFE10)) + list(range(0xE0100, 0xE0110)) + [0x180B, 0x180C, 0x180D, 0x180F])) for _ in range(50)) + VS16 + VS16,
    # Noncharacters: U+FFFE, U+FFFF, U+FDD0..U+FDEF and the last two of every plane.
    "noncharacters": "a" + chr(0xFFFE) + "b " + "x" + chr(0xFFFF) * 2 + " " + "".join(chr(c) for c in range(0xFDD0, 0xFDF0)) + " " + " ".join(chr(p * 0x10000 + 0xFFFE) + chr(p * 0x10000 + 0xFFFF) for p in range(17)),
    "noncharacters-alone": chr(0xFFFE),
    "private-use": mixed(pick([(0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD)], 20), 60) + chr(0x10FFFF) + chr(0xF8FF),
    # Combining marks with nothing to combine with: at the start, after spaces, after newlines, stacked.
    "combining-unpaired": "\u0301a \u0301\u0302\u0303 \u20dd\n\u0301\n \u0308" + "".join(chr(c) for c in range(0x300, 0x370)) + " x" + "\u0301" * 40 + " \u093f\u094d \u0e31\u0e48",
    "combining-after-space": " \u0301b  \u0301 \u0301\u0301c \u3099 \u200d\u0301 \t\u0301",
    "tags": "".join(chr(c) for c in range(0xE0000, 0xE0080)) + "a" + chr(0xE0041) + " " + chr(0xE0001),
    # Controls: C0, C1, DEL, CR alone, CR LF, NEL, form feed, vertical tab.
    "controls": "".join(chr(c) for c in range(0, 32)) + chr(0x7F) + "".join(chr(c) for c in range(0x80, 0xA0)) + "a\rb\r\nc\n\rd\x0be\x0cf\x85g\r\r\n\n",
    "nul": "a\x00b\x00\x00 c\x00",
    "crlf": "one\r\ntwo\r\n\r\nthree\r\n",
    "cr-alone": "one\rtwo\r\rthree\r",
    "separators": "line\u2028separator\u2029paragraph \u2028\u2029\u2028 x\u0085y\u000bz\u000cw",
    # Bidi: marks, embeddings, overrides, isolates, unbalanced; Arabic and Hebrew among Latin.
    "bidi-controls": "a\u200eb\u200fc \u202aemb\u202c \u202bemb\u202c \u202doverride\u202c \u202eevil\u202c \u2066iso\u2069 \u2067x\u2069 \u2068y\u2069 \u202e\u202e\u2067 unbalanced \u061c\u200e",
    "bidi-mixed": "Hello \u05e9\u05dc\u05d5\u05dd world \u0645\u0631\u062d\u0628\u0627 123 \u0661\u0662\u0663 (\u05d0[b]\u05d1) \u0627\u0644\u0639\u0631\u0628\u064a\u0629\u200d\u0644",
    # South-east Asian scripts (complex breaking: SA), CJK, Hangul jamo and syllables.
    "thai": "\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22\u0e40\u0e1b\u0e47\u0e19\u0e20\u0e32\u0e29\u0e32\u0e17\u0e35\u0e48\u0e21\u0e35\u0e23\u0e30\u0e14\u0e31\u0e1a\u0e40\u0e2a\u0e35\u0e22\u0e07\u0e02\u0e2d\u0e07\u0e04\u0e33 \u0e41\u0e21\u0e27\u0e01\u0e34\u0e19\u0e1b\u0e25\u0e32" * 2,
    "lao": "\u0e9e\u0eb2\u0eaa\u0eb2\u0ea5\u0eb2\u0ea7\u0ec1\u0ea1\u0ec8\u0e99\u0e9e\u0eb2\u0eaa\u0eb2\u0ec0\u0ea7\u0ebb\u0ec9\u0eb2 \u0eab\u0ebc\u0eb1\u0e81" * 3,
    "khmer": "\u1797\u17b6\u179f\u17b6\u1781\u17d2\u1798\u17c2\u179a\u1782\u17ba\u1787\u17b6\u1797\u17b6\u179f\u17b6\u1795\u17d2\u179b\u17bc\u179c\u1780\u17b6\u179a \u17d4" * 3,
    "myanmar": "\u1019\u103c\u1014\u103a\u1019\u102c\u1018\u102c\u101e\u102c\u1005\u1000\u102c\u1038 \u1000\u103b\u103d\u1014\u103a\u1010\u1031\u102c\u103a" * 3,
    "cjk": "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\u3002\u4e2d\u6587\uff0c\u7e41\u9ad4\u5b57\u300c\u5f15\u7528\u300d\u3001\u30fc\u3041\u3083\u30fd\u3005\uff01\uff1f" + "".join(chr(c) for c in pick([(0x4E00, 0x9FFF), (0x20000, 0x2A6DF), (0x3400, 0x4DBF)], 40)),
    "hangul-jamo": "".join(chr(rng.randint(0x1100, 0x1112)) + chr(rng.randint(0x1161, 0x1175)) + (chr(rng.randint(0x11A8, 0x11C2)) if rng.random() < 0.5 else "") for _ in range(30))
    + " \u1161\u11a8 \u11a8\u1100 \uac00\u11a8 \ud7b0\ud7fb \u3131\u314f",
    "hangul-syllables": "".join(chr(c) for c in pick([(0xAC00, 0xD7A3)], 50)) + " \ud55c\uad6d\uc5b4 \ubb38\uc7a5",
    # Spaces and what glues or splits words: NBSP, narrow NBSP, ZWSP, WJ, soft hyphen, ideographic space.
    "spaces": "a\u00a0b\u202fc\u2007d\u200be\u2060f\u00adg\u3000h\u2009i\u200aj\u1680k\ufeffl \t \t  m" + "\u200b" * 20 + "n\u00ad\u00ad\u00ado",
    "long-word": "x" * 300 + " " + "\u0928\u092e\u0938\u094d\u0924\u0947" * 40,
    "blanks": " " * 100 + "\t" * 20,
    "empty-lines": "\n" * 40,
    "one-char": "a",
    "empty": "",
    "replacement": "\ufffd\ufffd a\ufffdb",
    "specials": "".join(chr(c) for c in range(0xFFF0, 0x10000) if c not in (0xFFFE, 0xFFFF)) + "\ufffc\ufffd",
}

INVALID = {
    # Bytes that are not UTF-8: surrogates, overlongs, past U+10FFFF, cut sequences, stray continuations.
    "invalid-surrogates": b"a\xed\xa0\x80b\xed\xbf\xbf\xed\xa0\xbd\xed\xb8\x80 c",
    "invalid-overlong": b"\xc0\xaf \xe0\x80\xaf \xf0\x80\x80\xaf \xc1\xbf \xe0\x9f\xbf x",
    "invalid-past-max": b"\xf4\x90\x80\x80 \xf5\x80\x80\x80 \xf7\xbf\xbf\xbf \xf8\x88\x80\x80\x80 \xfc\x84\x80\x80\x80\x80 \xfe\xff",
    "invalid-cut": b"\xe2\x80 a\xf0\x9f\x87 \xf0\x9f \xc3 \xe6\x97" + "\U0001F1EB".encode()[:3],
    "invalid-continuations": b"\x80\x81\xbf a \x80 \xbf\xbf\xbf\xbf b\xc3\xa9\x80",
    "invalid-bom": b"\xef\xbb\xbf\xef\xbb\xbfa\xff\xfe\x00b\xfe\xff",
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.startswith(PREFIX):
            os.remove(os.path.join(OUT, f))
    count = 0
    # The break test files, PER_FILE strings a file.
    for name in ["LineBreakTest.txt", "GraphemeBreakTest.txt", "WordBreakTest.txt", "SentenceBreakTest.txt"]:
        strings = test_strings(name)
        short = name.replace("Test.txt", "").lower()
        for k in range(0, len(strings), PER_FILE):
            write(f"{short}-{k // PER_FILE:03d}", b"\n".join(strings[k:k + PER_FILE]))
            count += 1
    # Random strings per line-break class, and each class beside every other in turn.
    classes = {}
    for a, b, v in ranges("LineBreak.txt", 1):
        classes.setdefault(v, []).append((a, b))
    # SG (surrogates) has nothing UTF-8 can carry: the invalid-* seeds stand for it.
    classes = {cls: spans for cls, spans in classes.items() if any(encodable(a) or encodable(b) for a, b in spans)}
    for cls in sorted(classes):
        cps = pick(classes[cls], 24)
        write(f"class-{cls}", mixed(cps, 50).encode("utf-8", "surrogatepass"))
        count += 1
    names = sorted(classes)
    pairs = []
    for cls in names:
        a = pick(classes[cls], 1)[0]
        for other in names:
            b = pick(classes[other], 1)[0]
            pairs.append(chr(a) + chr(b) + " " + chr(b) + chr(a))
    for k in range(0, len(pairs), 250):
        write(f"class-pairs-{k // 250:02d}", "\n".join(pairs[k:k + 250]).encode("utf-8"))
        count += 1
    # Random strings per general category.
    categories = {}
    for a, b, gc in general_categories():
        categories.setdefault(gc, []).append((a, b))
    for gc in sorted(categories):
        spans = [(a, b) for a, b in categories[gc] if encodable(a) or encodable(b)]
        if not spans:
            continue
        cps = pick(spans, 24)
        write(f"category-{gc}", mixed(cps, 50).encode("utf-8"))
        count += 1
    for name, s in SPECIAL.items():
        write(name, s.encode("utf-8"))
        count += 1
    for name, b in INVALID.items():
        write(name, b)
        count += 1
    total = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT) if f.startswith(PREFIX))
    print(f"{count} seeds, {total} bytes in {OUT}")
    write_dictionary()


# Byte sequences the mutator splices in whole: what breakers and shapers treat specially.
TOKENS = {
    "zwj": ZWJ, "zwnj": "\u200c", "vs15": VS15, "vs16": VS16, "keycap": "\u20e3", "ri_f": chr(RI[5]), "ri_r": chr(RI[17]),
    "flag_fr": flag("F", "R"), "tag_g": chr(0xE0067), "tag_cancel": chr(0xE007F), "black_flag": chr(0x1F3F4),
    "tone": TONES[0], "man": chr(0x1F468), "heart": "\u2764", "fffe": "\ufffe", "ffff": "\uffff", "fdd0": "\ufdd0",
    "plane16_nonchar": chr(0x10FFFF), "pua": "\ue000", "fffd": "\ufffd", "fffc": "\ufffc", "bom": "\ufeff",
    "acute": "\u0301", "enclosing_circle": "\u20dd", "virama": "\u094d", "nukta": "\u093c", "thai_mai_ek": "\u0e48",
    "thai": "\u0e01\u0e32", "lao": "\u0e81\u0eb2", "khmer": "\u1780\u17d2\u179a", "myanmar": "\u1000\u103a", "cjk": "\u6f22",
    "cjk_ext_b": chr(0x20000), "kana_small": "\u3041", "ideographic_space": "\u3000", "ideographic_stop": "\u3002",
    "jamo_l": "\u1100", "jamo_v": "\u1161", "jamo_t": "\u11a8", "hangul_lv": "\uac00", "hangul_lvt": "\uac01",
    "nbsp": "\u00a0", "narrow_nbsp": "\u202f", "zwsp": "\u200b", "wj": "\u2060", "shy": "\u00ad", "hyphen": "\u2010",
    "em_dash": "\u2014", "ellipsis": "\u2026", "ls": "\u2028", "ps": "\u2029", "nel": "\u0085", "crlf": "\r\n", "cr": "\r",
    "lf": "\n", "tab": "\t", "vt": "\x0b", "ff": "\x0c", "nul": "\x00", "del": "\x7f", "lrm": "\u200e", "rlm": "\u200f",
    "rlo": "\u202e", "pdf": "\u202c", "lri": "\u2066", "pdi": "\u2069", "alm": "\u061c", "arabic": "\u0644\u0627",
    "hebrew": "\u05e9", "quote_open": "\u201c", "quote_close": "\u201d", "guillemet": "\u00ab", "euro": "\u20ac",
    "percent": "%", "open_paren": "(", "close_paren": ")", "slash": "/", "comma_digits": "1,000.5",
}
RAW = {
    "bad_surrogate": b"\xed\xa0\x80", "bad_overlong": b"\xc0\x80", "bad_past_max": b"\xf4\x90\x80\x80", "bad_ff": b"\xff",
    "bad_cut": b"\xf0\x9f\x87", "bad_continuation": b"\x80",
}


def write_dictionary():
    os.makedirs(os.path.dirname(DICT), exist_ok=True)

    def quoted(b):
        return "".join(chr(c) if 0x20 <= c < 0x7F and c not in (0x22, 0x5C) else f"\\x{c:02x}" for c in b)

    with open(DICT, "w", encoding="ascii") as f:
        f.write("# The text target's dictionary: written by Fuzz/make_text_seeds.py.\n")
        for name, s in TOKENS.items():
            f.write(f'{name}="{quoted(s.encode("utf-8"))}"\n')
        for name, b in RAW.items():
            f.write(f'{name}="{quoted(b)}"\n')


if __name__ == "__main__":
    main()
