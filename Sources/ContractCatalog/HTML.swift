/// Building HTML text: escaping, and the page shell every catalog page shares. Pages are plain
/// HTML and CSS with relative links, so they work opened from disk (file://) with nothing fetched.
enum HTML {
    /// Text for an element's content or a double-quoted attribute.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    static func code(_ text: String) -> String {
        "<code>" + escape(text) + "</code>"
    }

    /// A page: `root` is the relative path back to the catalog's folder ("" or "../").
    static func page(title: String, root: String, footer: String, body: String, scripts: [String] = []) -> String {
        var text = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <link rel="stylesheet" href="\(root)catalog.css">
        </head>
        <body>
        <header class="site"><a href="\(root)index.html">Contract catalog</a> <span class="sep">/</span> <a href="\(root)link-builder.html">Build a campaign link</a></header>
        <main>

        """
        text += body
        text += "</main>\n<footer>\(footer)</footer>\n"
        for script in scripts { text += "<script src=\"\(root)\(script)\"></script>\n" }
        text += "</body>\n</html>\n"
        return text
    }

    /// A table; cells are HTML already.
    static func table(head: [String], rows: [[String]], className: String? = nil) -> String {
        var text = className.map { "<table class=\"\($0)\">\n" } ?? "<table>\n"
        text += "<thead><tr>" + head.map { "<th>\(escape($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for row in rows { text += "<tr>" + row.map { "<td>\($0)</td>" }.joined() + "</tr>\n" }
        return text + "</tbody>\n</table>\n"
    }
}
