package io.ferry.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ferry.report.SortableTable.Cell;
import io.ferry.report.SortableTable.Column;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SortableTableTest {
  private static final List<Column> COLUMNS = List.of(Column.text("key"), Column.number("bytes"), Column.text("executor"));

  private static List<Cell> row(String key, long bytes, String executor) {
    return List.of(Cell.text(key), Cell.number(bytes, Units.bytes(bytes)), Cell.text(executor));
  }

  private static final List<List<Cell>> ROWS = List.of(row("b", 10, "2"), row("a", 2048, "1"), row("c", 10, "1"),
      row("B", 1 << 20, "2"));

  private static List<String> keys(List<List<Cell>> rows) {
    return rows.stream().map(r -> r.get(0).shown()).toList();
  }

  @Test
  void textSortsAToZNumbersLargestFirstAndTiesKeepTheGivenOrder() {
    SortableTable t = new SortableTable("t", COLUMNS, ROWS, 0);
    assertThat(keys(t.sortedBy(0))).containsExactly("B", "a", "b", "c"); // by UTF-16 units, as the keys are listed
    assertThat(keys(t.sortedBy(1))).containsExactly("B", "a", "b", "c"); // 1 MiB, 2 KiB, then 10 B twice as given
    assertThat(keys(t.sortedBy(2))).containsExactly("a", "c", "b", "B");
    // by the number, not by what is shown: "1.0 MiB" would sort below "10 B" as text
    assertThat(t.sortedBy(1).get(0).get(1).shown()).isEqualTo(Units.bytes(1 << 20));
  }

  @Test
  void eachColumnsOrderIsABodyOfItsOwnAndTheInitialOnesButtonIsChecked() {
    String html = new SortableTable("slow\"est", COLUMNS, ROWS, 1).html();
    assertThat(count(html, "<tbody>")).isEqualTo(3);
    assertThat(count(html, "<input type=radio")).isEqualTo(3);
    assertThat(count(html, " checked")).isEqualTo(1);
    assertThat(html).contains("id=\"slow&quot;est-1\" checked>").doesNotContain("slow\"est");
    // each header labels its own column's button
    for (int c = 0; c < 3; c++) assertThat(html).contains("<label for=\"slow&quot;est-" + c + "\"");
    // the bodies in the buttons' order: the second body is by bytes
    Matcher bodies = Pattern.compile("<tbody>(.*?)</tbody>").matcher(html);
    bodies.find();
    bodies.find();
    assertThat(bodies.group(1)).startsWith("<tr><td class=l>B</td><td>" + Units.bytes(1 << 20) + "</td>");
  }

  @Test
  void anEmptyTableStillHasItsHeadersAndTheStyleHasARulePerColumnATableMayHave() {
    String html = new SortableTable("e", COLUMNS, List.of(), 0).html();
    assertThat(html).contains("<label for=\"e-2\"").doesNotContain("<tr><td");
    for (int c = 1; c <= SortableTable.MAX_COLUMNS; c++) {
      assertThat(SortableTable.CSS).contains(":nth-of-type(" + c + "):checked~table>tbody:nth-of-type(" + c + "){display:table-row-group}");
    }
  }

  @Test
  void aTableTheStyleCannotSortOrARowOfTheWrongWidthIsRefused() {
    List<Column> ten = java.util.Collections.nCopies(SortableTable.MAX_COLUMNS + 1, Column.text("x"));
    assertThatThrownBy(() -> new SortableTable("t", ten, List.of(), 0)).hasMessageContaining("1 to 9 columns");
    assertThatThrownBy(() -> new SortableTable("t", COLUMNS, List.of(List.of(Cell.text("a"))), 0)).hasMessageContaining("a row of 1");
    assertThatThrownBy(() -> new SortableTable("t", COLUMNS, ROWS, 3)).hasMessageContaining("no column 3");
  }

  private static int count(String s, String of) {
    return s.split(Pattern.quote(of), -1).length - 1;
  }
}
