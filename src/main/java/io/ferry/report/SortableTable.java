package io.ferry.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A table whose rows sort by any column without a script (the report page runs none): each column's order is drawn as a
 * body of its own, and a radio button per column, which the column's header labels, shows that body alone (the page's
 * style sheet, {@link #CSS}). Text sorts A to Z, numbers largest first; rows that tie keep the order they were given in.
 *
 * @param id names the table's buttons: unique within a page
 * @param initial the column whose order shows first
 */
record SortableTable(String id, List<Column> columns, List<List<Cell>> rows, int initial) {
  /** Columns a table may have: as many as the style sheet has rules for. */
  static final int MAX_COLUMNS = 9;

  /** A column's title, and whether it holds text (left, A to Z) or numbers (right, largest first). */
  record Column(String title, boolean text) {
    static Column text(String title) {
      return new Column(title, true);
    }

    static Column number(String title) {
      return new Column(title, false);
    }
  }

  /** A cell as shown, and what it sorts by: its text, or its number. */
  record Cell(String shown, double number) {
    static Cell text(String shown) {
      return new Cell(shown == null ? "" : shown, 0);
    }

    static Cell number(double number, String shown) {
      return new Cell(shown, number);
    }
  }

  SortableTable {
    if (columns.isEmpty() || columns.size() > MAX_COLUMNS) {
      throw new IllegalArgumentException("a sortable table has 1 to " + MAX_COLUMNS + " columns, not " + columns.size());
    }
    if (initial < 0 || initial >= columns.size()) throw new IllegalArgumentException("no column " + initial);
    for (List<Cell> row : rows) {
      if (row.size() != columns.size()) throw new IllegalArgumentException("a row of " + row.size() + " cells in " + columns.size()
          + " columns");
    }
    columns = List.copyOf(columns);
    rows = List.copyOf(rows);
  }

  /** The rows in column {@code c}'s order. */
  List<List<Cell>> sortedBy(int c) {
    Comparator<List<Cell>> order = columns.get(c).text() ? Comparator.comparing(r -> r.get(c).shown())
        : Comparator.comparingDouble((List<Cell> r) -> r.get(c).number()).reversed();
    List<List<Cell>> sorted = new ArrayList<>(rows);
    sorted.sort(order); // stable: ties keep the given order
    return sorted;
  }

  String html() {
    StringBuilder h = new StringBuilder("<div class=sort>");
    for (int c = 0; c < columns.size(); c++) {
      h.append("<input type=radio name=\"").append(HtmlReport.esc(id)).append("\" id=\"").append(HtmlReport.esc(id)).append('-').append(c)
          .append('"').append(c == initial ? " checked" : "").append('>');
    }
    h.append("<table id=\"").append(HtmlReport.esc(id)).append("\"><thead><tr>");
    for (int c = 0; c < columns.size(); c++) {
      Column column = columns.get(c);
      h.append(column.text() ? "<th class=l>" : "<th>").append("<label for=\"").append(HtmlReport.esc(id)).append('-').append(c)
          .append("\" title=\"sort ").append(column.text() ? "A to Z" : "largest first").append("\">")
          .append(HtmlReport.esc(column.title())).append("</label></th>");
    }
    h.append("</tr></thead>");
    for (int c = 0; c < columns.size(); c++) {
      h.append("<tbody>");
      for (List<Cell> row : sortedBy(c)) {
        h.append("<tr>");
        for (int k = 0; k < row.size(); k++) {
          h.append(columns.get(k).text() ? "<td class=l>" : "<td>").append(HtmlReport.esc(row.get(k).shown())).append("</td>");
        }
        h.append("</tr>");
      }
      h.append("</tbody>");
    }
    return h.append("</table></div>").toString();
  }

  /** The style that shows the checked column's body and marks its header: a rule per column a table may have. */
  static final String CSS = css();

  private static String css() {
    StringBuilder s = new StringBuilder(".sort>input{display:none}.sort tbody{display:none}.sort label{cursor:pointer}"
        + ".sort label::after{content:\" \\2195\";color:#999}");
    for (int c = 1; c <= MAX_COLUMNS; c++) {
      String checked = ".sort>input:nth-of-type(" + c + "):checked~table";
      s.append(checked).append(">tbody:nth-of-type(").append(c).append("){display:table-row-group}")
          .append(checked).append(" th:nth-child(").append(c).append("){background:#dde6f7}");
    }
    return s.toString();
  }
}
