"""Writes the characters the lazily loaded CJK font carries, one line of UTF-8 text.

GB2312 (levels 1 and 2: the 6,763 common simplified hanzi, plus its punctuation), the
Hangul syllables of KS X 1001 (2,350), JIS X 0208 (kanji and kana), and the full-width
forms. Built from Python's own codecs, so nothing is downloaded. Every character beyond
Latin-1 in the TEXT files is added too (the Chinese UI strings of src/ui/strings.h).
    python3 cmake/steps/cjk_charset.py OUT.txt [TEXT...]
With --only-text, only the TEXT files' characters beyond Latin-1 (the first frame's small
Chinese subset, fonts/ui-zh.ttf):
    python3 cmake/steps/cjk_charset.py --only-text OUT.txt TEXT...
"""
import sys


def double_byte(codec, lead, trail):
    chars = set()
    for a in lead:
        for b in trail:
            try:
                chars.add(bytes([a, b]).decode(codec))
            except UnicodeDecodeError:
                pass
    return chars


only_text = sys.argv[1] == "--only-text"
if only_text:
    del sys.argv[1]
chars = set()
if not only_text:
    chars |= double_byte("gb2312", range(0xA1, 0xF8), range(0xA1, 0xFF))
    chars |= double_byte("euc_kr", range(0xA1, 0xFE), range(0xA1, 0xFF))
    chars |= double_byte("euc_jp", range(0xA1, 0xF5), range(0xA1, 0xFF))
    chars |= {chr(c) for c in range(0xFF01, 0xFF5F)}
    chars |= {chr(c) for c in range(0x3000, 0x3040)}
for extra in sys.argv[2:]:
    with open(extra, encoding="utf-8") as f:
        chars |= {c for c in f.read() if ord(c) > 0xFF}
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write("".join(sorted(c for c in chars if len(c) == 1)))
