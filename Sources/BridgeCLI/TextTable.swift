/// Columns padded to their widest cell (counted in characters), two spaces apart; the last
/// column is not padded, so no line ends in spaces.
struct TextTable {
    var rows: [[String]] = []

    mutating func add(_ cells: [String]) {
        rows.append(cells)
    }

    var text: String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }.joined()
        }.map { $0 + "\n" }.joined()
    }
}
