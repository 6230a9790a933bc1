#!/usr/bin/env python3
"""Writes a DocC archive's pages as plain HTML that opens from a file.

DocC's own site is a JavaScript app that fetches each page's JSON and links from the server's
root (`/js/...`, `/data/...`): opened from a file it shows a blank page, and its static-HTML
mode (`--experimental-transform-for-static-hosting-with-content`) crashes on Linux in this
toolchain's FoundationXML. This reads the archive's render JSON (`data/documentation/**`, the
same content the app shows) and writes one HTML page per symbol and article, with relative
links and the catalogs' images, plus an index.html naming every module.

Usage: docc-html.py ARCHIVE OUTPUT_DIR
"""
import html
import json
import os
import pathlib
import shutil
import sys

STYLE = """
body { font: 16px/1.5 -apple-system, "Helvetica Neue", Helvetica, Arial, sans-serif;
  max-width: 52em; margin: 2em auto; padding: 0 1em; color: #1d1d1f; }
code, pre { font: 14px/1.4 ui-monospace, Menlo, "DejaVu Sans Mono", monospace; }
pre { background: #f5f5f7; padding: 0.8em 1em; overflow-x: auto; border-radius: 6px; }
p code, li code, td code { background: #f5f5f7; padding: 0 0.2em; border-radius: 3px; }
.declaration { border-left: 3px solid #0a84ff; }
.role { color: #6e6e73; text-transform: uppercase; font-size: 0.8em; letter-spacing: 0.05em; }
.abstract { font-size: 1.15em; }
.topic { margin: 0.4em 0; } .topic p { margin: 0.1em 0 0.1em 1.5em; color: #424245; }
.aside { border-left: 3px solid #6e6e73; padding: 0.2em 1em; background: #fafafa; }
nav { font-size: 0.9em; color: #6e6e73; } table { border-collapse: collapse; }
td, th { border: 1px solid #d2d2d7; padding: 0.3em 0.6em; vertical-align: top; }
img { max-width: 100%; } h1 { overflow-wrap: anywhere; }
"""


class Site:
    def __init__(self, archive, out):
        self.archive = pathlib.Path(archive)
        self.out = pathlib.Path(out)
        self.page_dir = None  # the directory of the page being written
        self.references = {}

    def file_for(self, url):
        """The file a DocC URL (`/documentation/loadersdl/loaderview#x`) is written to."""
        path, _, anchor = url.partition("#")
        target = self.out / path.strip("/") / "index.html"
        return target, anchor

    def href(self, url):
        if url.startswith(("http://", "https://", "mailto:")):
            return url
        target, anchor = self.file_for(url)
        relative = os.path.relpath(target, self.page_dir)
        return relative + ("#" + anchor if anchor else "")

    def asset(self, url):
        return os.path.relpath(self.out / url.strip("/"), self.page_dir)

    # Inline content.

    def inline(self, items):
        return "".join(self.inline_one(i) for i in items or [])

    def inline_one(self, item):
        kind = item.get("type")
        if kind == "text":
            return html.escape(item["text"])
        if kind == "codeVoice":
            return f"<code>{html.escape(item['code'])}</code>"
        if kind in ("emphasis", "newTerm"):
            return f"<em>{self.inline(item.get('inlineContent'))}</em>"
        if kind in ("strong", "inlineHead"):
            return f"<strong>{self.inline(item.get('inlineContent'))}</strong>"
        if kind == "strikethrough":
            return f"<s>{self.inline(item.get('inlineContent'))}</s>"
        if kind in ("subscript", "superscript"):
            tag = "sub" if kind == "subscript" else "sup"
            return f"<{tag}>{self.inline(item.get('inlineContent'))}</{tag}>"
        if kind == "reference":
            return self.link(item["identifier"], item.get("overridingTitle"))
        if kind == "link":
            title = html.escape(item.get("title") or item["destination"])
            return f'<a href="{html.escape(item["destination"])}">{title}</a>'
        if kind == "image":
            return self.image(item["identifier"])
        return html.escape(item.get("text", ""))

    def link(self, identifier, title=None):
        ref = self.references.get(identifier, {})
        text = title or ref.get("title") or identifier.rsplit("/", 1)[-1]
        if ref.get("type") == "topic" and ref.get("kind") == "symbol":
            text = f"<code>{html.escape(text)}</code>"
        else:
            text = html.escape(text)
        url = ref.get("url")
        if not url:
            return text
        return f'<a href="{html.escape(self.href(url))}">{text}</a>'

    def image(self, identifier):
        ref = self.references.get(identifier, {})
        variants = ref.get("variants") or []
        if not variants:
            return ""
        alt = html.escape(ref.get("alt") or "")
        return f'<img src="{html.escape(self.asset(variants[0]["url"]))}" alt="{alt}">'

    # Blocks.

    def blocks(self, items):
        return "\n".join(self.block(b) for b in items or [])

    def block(self, item):
        kind = item.get("type")
        if kind == "paragraph":
            return f"<p>{self.inline(item.get('inlineContent'))}</p>"
        if kind == "heading":
            level = min(6, item.get("level", 2) + 1)
            anchor = html.escape(item.get("anchor", ""))
            return f'<h{level} id="{anchor}">{html.escape(item["text"])}</h{level}>'
        if kind == "codeListing":
            return f"<pre><code>{html.escape(chr(10).join(item.get('code') or []))}</code></pre>"
        if kind in ("unorderedList", "orderedList"):
            tag = "ul" if kind == "unorderedList" else "ol"
            items = "".join(f"<li>{self.blocks(i.get('content'))}</li>" for i in item["items"])
            return f"<{tag}>{items}</{tag}>"
        if kind == "aside":
            name = html.escape(item.get("name") or item.get("style", "").capitalize())
            return f'<div class="aside"><p><strong>{name}</strong></p>{self.blocks(item.get("content"))}</div>'
        if kind == "table":
            rows = item.get("rows") or []
            out = []
            for r, row in enumerate(rows):
                tag = "th" if r == 0 and item.get("header") == "row" else "td"
                cells = "".join(f"<{tag}>{self.blocks(cell)}</{tag}>" for cell in row)
                out.append(f"<tr>{cells}</tr>")
            return "<table>" + "".join(out) + "</table>"
        if kind == "termList":
            items = "".join(
                f"<dt>{self.inline(i['term']['inlineContent'])}</dt>"
                f"<dd>{self.blocks(i['definition']['content'])}</dd>"
                for i in item["items"])
            return f"<dl>{items}</dl>"
        if kind == "thematicBreak":
            return "<hr>"
        return self.blocks(item.get("content"))

    def tokens(self, tokens):
        out = []
        for t in tokens:
            text = html.escape(t["text"])
            if t.get("kind") == "typeIdentifier" and t.get("identifier") in self.references:
                url = self.references[t["identifier"]].get("url")
                if url:
                    text = f'<a href="{html.escape(self.href(url))}">{text}</a>'
            out.append(text)
        return "".join(out)

    # Pages.

    def sections(self, sections, heading):
        out = []
        for section in sections or []:
            ids = section.get("identifiers") or []
            if not ids:
                continue
            title = html.escape(section.get("title") or heading)
            out.append(f"<h3>{title}</h3>")
            for identifier in ids:
                ref = self.references.get(identifier, {})
                abstract = self.inline(ref.get("abstract"))
                out.append(f'<div class="topic">{self.link(identifier)}<p>{abstract}</p></div>')
        return "\n".join(out)

    def page(self, node):
        meta = node.get("metadata", {})
        self.references = node.get("references", {})
        title = meta.get("title", "")
        parts = [f'<p class="role">{html.escape(meta.get("roleHeading", ""))}</p>',
                 f"<h1>{html.escape(title)}</h1>",
                 f'<p class="abstract">{self.inline(node.get("abstract"))}</p>']
        for section in node.get("primaryContentSections") or []:
            kind = section.get("kind")
            if kind == "declarations":
                for d in section["declarations"]:
                    parts.append(f'<pre class="declaration"><code>{self.tokens(d["tokens"])}</code></pre>')
            elif kind == "parameters":
                parts.append("<h2>Parameters</h2><dl>")
                for p in section["parameters"]:
                    parts.append(f"<dt><code>{html.escape(p['name'])}</code></dt><dd>{self.blocks(p.get('content'))}</dd>")
                parts.append("</dl>")
            elif kind == "content":
                parts.append(self.blocks(section.get("content")))
        if node.get("topicSections"):
            parts.append("<h2>Topics</h2>" + self.sections(node["topicSections"], "Topics"))
        if node.get("relationshipsSections"):
            parts.append("<h2>Relationships</h2>" + self.sections(node["relationshipsSections"], ""))
        if node.get("seeAlsoSections"):
            parts.append("<h2>See Also</h2>" + self.sections(node["seeAlsoSections"], ""))
        crumbs = []
        for level in (node.get("hierarchy") or {}).get("paths", [[]])[0]:
            crumbs.append(self.link(level))
        nav = f'<nav><a href="{html.escape(os.path.relpath(self.out / "index.html", self.page_dir))}">All modules</a>'
        nav += "".join(" / " + c for c in crumbs) + "</nav>"
        return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
                f"<style>{STYLE}</style></head><body>{nav}\n" + "\n".join(parts) + "</body></html>\n")

    def write(self):
        if self.out.exists():
            shutil.rmtree(self.out)
        self.out.mkdir(parents=True)
        for folder in ("images", "videos", "downloads"):
            if (self.archive / folder).is_dir():
                shutil.copytree(self.archive / folder, self.out / folder)
        modules = []
        data = self.archive / "data"
        for source in sorted(data.glob("documentation/**/*.json")):
            node = json.loads(source.read_text())
            url = "/" + str(source.relative_to(data).with_suffix(""))
            target, _ = self.file_for(url.lower())
            self.page_dir = target.parent
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(self.page(node))
            if node.get("kind") == "symbol" and node.get("metadata", {}).get("role") == "collection":
                modules.append((node["metadata"]["title"], target, node.get("abstract")))
        self.page_dir = self.out
        self.references = {}
        items = "".join(
            f'<div class="topic"><a href="{html.escape(os.path.relpath(t, self.out))}"><code>{html.escape(n)}</code></a>'
            f"<p>{self.inline(a)}</p></div>" for n, t, a in modules)
        (self.out / "index.html").write_text(
            f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Documentation</title>"
            f"<style>{STYLE}</style></head><body><h1>Documentation</h1>{items}</body></html>\n")
        return len(modules)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    count = Site(sys.argv[1], sys.argv[2]).write()
    if count == 0:
        sys.exit(f"docc-html: no module page in {sys.argv[1]}")


if __name__ == "__main__":
    main()
