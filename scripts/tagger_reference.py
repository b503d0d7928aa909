#!/usr/bin/env python3
"""Write the tagger's parity fixture: sentences of the project's own held-out documents
tagged by Brill's full algorithm as Pattern implements it (TextBlob's `_text.find_tags`
with the lexicon's morphology and context rules; TextBlob's own PatternTagger leaves both
rule lists out), the reference the engine's `language::Tagger` must reproduce tag for tag.

Not part of the test command (it needs TextBlob installed: `pip install textblob==0.20.1`,
the version models/lexicons.json pins); run it only to regenerate
engine/src/language/fixtures/tags.txt. Sentences where the engine deliberately departs
from the reference (a word in capitals or a possessive the lexicon knows only otherwise)
are left out.

Usage: tagger_reference.py [N sentences, default 200]
"""

import json
import re
import sys
from pathlib import Path

from textblob._text import find_tags
from textblob.en import lexicon as LEXICON  # the same en-lexicon.txt the engine loads

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "data" / "condqa-heldout.jsonl"
OUT = ROOT / "engine" / "src" / "language" / "fixtures" / "tags.txt"
TOKEN = re.compile(r"\w+(?:[-'’/.+]\w+)*|[^\w\s]")


def departs(tokens):
    """Whether the engine's extensions to Brill's lookup would touch a token."""
    for i, t in enumerate(tokens):
        if t in LEXICON or (i == 0 and t.lower() in LEXICON):
            continue
        letters = [c for c in t if c.isalpha()]
        capitals = letters and not any(c.islower() for c in t) and len(t) > 3
        if capitals or t.endswith(("'s", "’s")) or not any(c.isalnum() for c in t) or "/" in t:
            return True
    return False


def main() -> int:
    want = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    lines = []
    for line in SOURCE.read_text().splitlines():
        for doc in json.loads(line)["docs"]:
            for sentence in re.split(r"(?<=[.;!?])\s+", doc):
                tokens = TOKEN.findall(sentence)
                if len(tokens) < 4 or departs(tokens):
                    continue
                tagged = find_tags(tokens, lexicon=LEXICON, morphology=LEXICON.morphology,
                                   context=LEXICON.context, default=("NN", "NNP", "CD"),
                                   language="en")
                if [w for w, _ in tagged] != tokens:
                    continue
                lines.append(" ".join(f"{w}/{t}" for w, t in tagged))
    lines = sorted(set(lines))[:want]
    OUT.write_text("# word/TAG by Brill's tagger as TextBlob 0.20.1 implements it (scripts/tagger_reference.py)\n"
                   + "\n".join(lines) + "\n")
    print(f"{len(lines)} sentences → {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
