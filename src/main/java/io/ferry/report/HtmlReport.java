package io.ferry.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A self-contained report page (inline SVG, no scripts, no network): what users open after a run. */
public final class HtmlReport {
  static final int WIDTH = 860;
  static final int HEIGHT = 220;

  private HtmlReport() {}

  public static String render(RunSummary s, RunStats stats, List<PartitionStats> partitions) {
    StringBuilder h = new StringBuilder();
    h.append(head("Ferry run " + s.run()));
    h.append("<h1>Ferry run ").append(esc(s.run())).append("</h1>");
    h.append("<p>Job <b>").append(esc(s.job())).append("</b>: ").append(esc(s.source())).append(" &rarr; ")
        .append(esc(s.destination())).append("<br>Started ").append(esc(s.startedAt())).append(", wall time ")
        .append(fmt(s.wallSeconds())).append(" s.</p>");
    // an older run's summary has none: drawn from its datasets, as the run would have (its bandwidth limit unknown)
    Verdict verdict = s.verdict() != null ? s.verdict()
        : Verdict.of(stats.evidence(s.wallSeconds(), s.stageSeconds(), s.throughput().copyStageSeconds(), 0));
    h.append("<p class=verdict id=verdict><b>Limited by ").append(esc(verdict.limit())).append("</b>: ").append(esc(verdict.evidence()))
        .append(".<br>").append(esc(verdict.advice().substring(0, 1).toUpperCase(Locale.ROOT)
        + verdict.advice().substring(1))).append(".</p>");
    if (s.convergence() != null) {
      h.append("<p class=verdict id=convergence><b>Convergence</b>: ").append(esc(s.convergence().line())).append(".</p>");
    }
    h.append("<table><tr><th class=l>objects copied</th><th>skipped (unchanged)</th><th>failed</th><th>bytes copied</th>"
        + "<th>aggregate MB/s</th><th>ranges</th><th>retries</th><th>range MB/s p50 / p90 / p99</th><th>first byte p50 ms</th></tr><tr>");
    h.append(td(s.objects().copied())).append(td(s.objects().skippedUnchanged()))
        .append("<td class=\"").append(s.objects().failed() > 0 ? "bad" : "").append("\">").append(s.objects().failed()).append("</td>")
        .append(td(s.bytes().copied() + " (" + Units.bytes(s.bytes().copied())
        + ")")).append(td(fmt(s.throughput().aggregateMBps()))).append(td(s.ranges().total()))
        .append(td(s.ranges().retries()))
        .append(td(fmt(s.throughput().rangeP50MBps()) + " / " + fmt(s.throughput().rangeP90MBps()) + " / "
        + fmt(s.throughput().rangeP99MBps())))
        .append(td(fmt(s.throughput().firstByteP50Ms()))).append("</tr></table>");

    h.append("<h2>Throughput over time</h2>").append(throughputChart(stats));
    h.append("<h2>Tasks over time</h2>").append(LanesChart.of(partitions, stats.tailStartMillis(s.throughput().copyStageSeconds())));
    tables(h, s, stats);
    h.append("<p>Datasets: <code>ranges</code>, <code>objects</code> and <code>partitions</code> (Parquet and CSV) and "
        + "<code>summary.json</code> in this folder; <code>notebooks/throughput.ipynb</code> loads them.</p></body></html>\n");
    return h.toString();
  }

  /** The executors', the slowest ranges', the failed objects' and those not copied, each a table; the ranges' rates a chart. */
  private static void tables(StringBuilder h, RunSummary s, RunStats stats) {
    List<List<SortableTable.Cell>> executorRows = new ArrayList<>();
    for (var e : stats.executors().entrySet()) {
      var x = e.getValue();
      double busy = x.busyNanos / 1e9;
      double rate = busy > 0 ? x.bytes / 1e6 / busy : 0;
      executorRows.add(List.of(SortableTable.Cell.text(e.getKey()), SortableTable.Cell.text(x.host), number(x.ranges, x.ranges),
          number(x.bytes, Units.bytes(x.bytes)), number(busy, fmt(busy)), number(rate, fmt(rate))));
    }
    h.append("<h2>Executors</h2>").append(new SortableTable("executors", List.of(SortableTable.Column.text("executor"),
        SortableTable.Column.text("host"), SortableTable.Column.number("ranges"), SortableTable.Column.number("bytes"),
        SortableTable.Column.number("busy s"), SortableTable.Column.number("MB/s while busy")), executorRows, 0).html());
    List<List<SortableTable.Cell>> slowRows = new ArrayList<>();
    for (RunSummary.Straggler r : s.stragglers()) {
      slowRows.add(List.of(SortableTable.Cell.text(r.key()), number(r.part(), r.part()), number(r.bytes(), Units.bytes(r.bytes())),
          number(r.seconds(), fmt(r.seconds())), number(r.mbps(), fmt(r.mbps())), SortableTable.Cell.text(r.executor()),
          number(r.attempts(), r.attempts())));
    }
    h.append("<h2>Range throughput (MB/s)</h2>").append(histogramChart(stats.histogram(20)));
    h.append("<h2>Slowest ranges</h2>").append(new SortableTable("slowest", List.of(SortableTable.Column.text("key"),
        SortableTable.Column.number("part"), SortableTable.Column.number("bytes"), SortableTable.Column.number("s"),
        SortableTable.Column.number("MB/s"), SortableTable.Column.text("executor"), SortableTable.Column.number("attempts")), slowRows, 3)
        .html());
    if (!s.failures().isEmpty()) {
      h.append("<h2 class=bad>Failed objects</h2>").append(new SortableTable("failures", List.of(SortableTable.Column.text("key"),
          SortableTable.Column.text("error")), s.failures().stream().map(f -> List.of(SortableTable.Cell.text(f.key()),
          SortableTable.Cell.text(f.error()))).toList(), 0).html());
    }
    if (!stats.notCopied().isEmpty()) {
      h.append("<h2>Objects not copied</h2><p>Left by the job's settings (").append(s.objects().notCopied())
          .append(" in all; the objects dataset has every one):</p>").append(new SortableTable("not-copied", List.of(
          SortableTable.Column.text("key"), SortableTable.Column.number("size"), SortableTable.Column.text("why")),
          stats.notCopied().stream().map(o -> List.of(SortableTable.Cell.text(o.object().key()), number(o.object().size(),
          Units.bytes(o.object().size())), SortableTable.Cell.text(o.error()))).toList(), 0).html());
    }
  }

  /** Executors drawn a line each, at most: beyond, the total alone (the Executors table has each one's figures). */
  static final int EXECUTOR_LINES = 12;

  private static final String[] COLORS = {"#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

  /**
   * The run's aggregate rate over the copy stage (the first line), each executor's beneath it where there are two to
   * {@link #EXECUTOR_LINES}, and a red mark at the foot of each bucket whose ranges were retried (its count on hover).
   */
  static String throughputChart(RunStats stats) {
    List<double[]> points = stats.timeline();
    if (points.isEmpty()) return "<p>No bytes moved.</p>";
    double maxX = Math.max(points.get(points.size() - 1)[0], 0.001);
    double maxY = points.stream().mapToDouble(p -> p[1]).max().orElse(1);
    maxY = maxY <= 0 ? 1 : maxY;
    StringBuilder svg = new StringBuilder(svgOpen()).append(axes("seconds since the copy began", "MB/s (max " + fmt(maxY) + ")", maxX,
        maxY));
    svg.append(line(points, maxX, maxY, "#1f77b4", 2, "total")).append("<title>all executors</title></path>");
    var executors = stats.executors().keySet();
    StringBuilder legend = new StringBuilder();
    if (executors.size() > 1 && executors.size() <= EXECUTOR_LINES) {
      int i = 0;
      for (String executor : executors) {
        if (stats.timeline(executor).isEmpty()) continue;
        String color = COLORS[i++ % COLORS.length];
        svg.append(line(stats.timeline(executor), maxX, maxY, color, 1, "executor")).append("<title>executor ").append(esc(executor))
            .append("</title></path>");
        legend.append(legend.length() == 0 ? "" : ", ").append("<span style=\"color:").append(color).append("\">executor ")
            .append(esc(executor)).append("</span>");
      }
    }
    List<double[]> retries = stats.retries();
    for (double[] r : retries) {
      svg.append("<circle class=retry cx=\"").append(fmt(40 + Math.min(r[0], maxX) / maxX * (WIDTH - 60))).append("\" cy=\"")
          .append(HEIGHT - 34).append("\" r=\"3\" fill=\"#d62728\"><title>").append((long) r[1]).append(" retries, ranges finished at ")
          .append(fmt(r[0])).append(" s</title></circle>");
    }
    List<double[]> slowed = stats.throttled();
    for (double[] t : slowed) {
      double x = 40 + Math.min(t[0], maxX) / maxX * (WIDTH - 60);
      svg.append("<path class=throttled d=\"M").append(fmt(x)).append(',').append(HEIGHT - 46)
          .append(" l4,6 l-4,6 l-4,-6 z\" fill=\"#ff7f0e\">"
          + "<title>").append((long) t[1]).append(" answers asking to slow down (503 SlowDown, 429), ranges finished at ")
          .append(fmt(t[0])).append(" s</title></path>");
    }
    svg.append("</svg>");
    if (legend.length() > 0 || !retries.isEmpty() || !slowed.isEmpty()) {
      svg.append("<p>Blue: all executors").append(legend.length() == 0 ? "" : "; ").append(legend)
          .append(retries.isEmpty() ? "" : "; red marks: retries, at the time their range finished")
          .append(slowed.isEmpty() ? "" : "; orange marks above them: the store asking to slow down (throttling)").append(".</p>");
    }
    return svg.toString();
  }

  /** An open path through {@code points} (seconds, MB/s) on the chart's axes; the caller closes it. */
  private static String line(List<double[]> points, double maxX, double maxY, String color, int width, String cssClass) {
    StringBuilder path = new StringBuilder();
    for (double[] p : points) {
      path.append(path.length() == 0 ? "M" : " L").append(fmt(40 + p[0] / maxX * (WIDTH - 60))).append(',')
          .append(fmt(HEIGHT - 30 - p[1] / maxY * (HEIGHT - 50)));
    }
    return "<path class=" + cssClass + " d=\"" + path + "\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"" + width + "\">";
  }

  private static String histogramChart(double[][] histogram) {
    double[] edges = histogram[0];
    double[] counts = histogram[1];
    double max = 1;
    for (double c : counts) max = Math.max(max, c);
    StringBuilder bars = new StringBuilder();
    double barWidth = (WIDTH - 60) / (double) Math.max(1, counts.length);
    for (int i = 0; i < counts.length; i++) {
      double height = counts[i] / max * (HEIGHT - 50);
      bars.append("<rect x=\"").append(fmt(40 + i * barWidth + 1)).append("\" y=\"").append(fmt(HEIGHT - 30 - height))
          .append("\" width=\"").append(fmt(barWidth - 2)).append("\" height=\"").append(fmt(height))
          .append("\" fill=\"#2ca02c\"><title>").append(fmt(edges[i])).append("–").append(fmt(edges[i + 1]))
          .append(" MB/s: ").append((long) counts[i]).append(" ranges</title></rect>");
    }
    return svgOpen() + axes("range MB/s (" + counts.length + " bins of " + fmt(edges[1] - edges[0]) + ")", "ranges",
        edges[edges.length - 1], max) + bars + "</svg>";
  }

  private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"};

  /**
   * Runs side by side: each run's totals and their change from the first run, throughput over time overlaid (seconds
   * since each copy began), and each run's distribution of range rates (the share of ranges at or below a rate).
   */
  static String compare(List<RunReader.Run> runs) {
    StringBuilder h = new StringBuilder();
    h.append(head("Ferry: " + runs.size() + " runs compared"));
    h.append("<h1>").append(runs.size()).append(" runs compared</h1>");
    h.append("<h2>Totals</h2><table><tr><th class=l>run</th><th class=l>job</th><th>objects copied</th><th>bytes copied</th>"
        + "<th>copy s</th><th>aggregate MB/s</th><th>vs first</th><th>range MB/s p50</th><th>p90</th><th>retries</th><th>failed</th></tr>");
    double first = runs.get(0).summary().throughput().aggregateMBps();
    for (int i = 0; i < runs.size(); i++) {
      RunSummary s = runs.get(i).summary();
      double rate = s.throughput().aggregateMBps();
      h.append("<tr class=\"run\"><td class=l style=\"color:").append(COLOURS[i % COLOURS.length]).append("\">").append(esc(s.run()))
          .append("</td><td class=l>").append(esc(s.job())).append("</td>").append(td(s.objects().copied()))
          .append(td(Units.bytes(s.bytes().copied()))).append(td(fmt(s.throughput().copyStageSeconds()))).append(td(fmt(rate)))
          .append(td(i == 0 || first <= 0 ? "" : String.format(Locale.ROOT, "%+.0f%%", (rate / first - 1) * 100)))
          .append(td(fmt(s.throughput().rangeP50MBps()))).append(td(fmt(s.throughput().rangeP90MBps())))
          .append(td(s.ranges().retries())).append(td(s.objects().failed())).append("</tr>");
    }
    h.append("</table>");
    double maxX = 0.001, maxY = 0.001, maxRate = 0.001;
    for (RunReader.Run r : runs) {
      for (double[] p : r.stats().timeline()) {
        maxX = Math.max(maxX, p[0]);
        maxY = Math.max(maxY, p[1]);
      }
      maxRate = Math.max(maxRate, r.stats().rateQuantile(1.0));
    }
    StringBuilder lines = new StringBuilder(), curves = new StringBuilder();
    for (int i = 0; i < runs.size(); i++) {
      String colour = COLOURS[i % COLOURS.length];
      StringBuilder path = new StringBuilder();
      for (double[] p : runs.get(i).stats().timeline()) {
        path.append(path.length() == 0 ? "M" : " L").append(fmt(40 + p[0] / maxX * (WIDTH - 60))).append(',')
            .append(fmt(HEIGHT - 30 - p[1] / maxY * (HEIGHT - 50)));
      }
      if (path.length() > 0
          && runs.get(i).summary().bytes().copied() > 0)
          lines.append("<path class=\"run\" d=\"").append(path).append("\" fill=\"none\" stroke=\"").append(colour)
          .append("\" stroke-width=\"2\"><title>").append(esc(runs.get(i).summary().run())).append("</title></path>");
      StringBuilder cdf = new StringBuilder();
      for (int q = 0; q <= 50; q++) {
        double rate = runs.get(i).stats().rateQuantile(q / 50.0);
        if (Double.isNaN(rate)) continue;
        cdf.append(cdf.length() == 0 ? "M" : " L").append(fmt(40 + rate / maxRate * (WIDTH - 60))).append(',')
            .append(fmt(HEIGHT - 30 - q / 50.0 * (HEIGHT - 50)));
      }
      if (cdf.length() > 0
          && runs.get(i).summary().bytes().copied() > 0)
          curves.append("<path class=\"rates\" d=\"").append(cdf).append("\" fill=\"none\" stroke=\"").append(colour)
          .append("\" stroke-width=\"2\"><title>").append(esc(runs.get(i).summary().run())).append("</title></path>");
    }
    h.append("<h2>Throughput over time</h2>").append(svgOpen()).append(axes("seconds since the copy began", "MB/s (max " + fmt(maxY)
        + ")", maxX, maxY)).append(lines).append("</svg>");
    h.append("<h2>Range rates</h2>").append(svgOpen()).append(axes("range MB/s", "share of ranges at or below", maxRate, 1))
        .append(curves).append("</svg>");
    h.append("<p>Each run's own page and datasets are in its folder:</p><ul>");
    for (RunReader.Run r : runs) h.append("<li><code>").append(esc(r.directory())).append("</code></li>");
    return h.append("</ul></body></html>\n").toString();
  }

  /** The page's head and its one style sheet (self-contained: no scripts, no network). */
  private static String head(String title) {
    return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" + esc(title) + "</title><style>"
        + "body{font:14px system-ui,sans-serif;margin:24px;color:#222;max-width:900px}p{overflow-wrap:anywhere}"
        + "table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}"
        + "th{background:#f3f3f3}td.l,th.l{text-align:left}.bad{color:#b00}"
        // narrow windows: charts scale down with the page, wide tables scroll inside themselves
        + "svg{background:#fafafa;border:1px solid #ddd;max-width:100%;height:auto}table{display:block;overflow-x:auto;max-width:100%}"
        + ".verdict{background:#eef4ff;border-left:4px solid #36c;padding:6px 10px}" + SortableTable.CSS
        + "</style></head><body>";
  }

  private static String svgOpen() {
    return "<svg width=\"" + WIDTH + "\" height=\"" + HEIGHT + "\" viewBox=\"0 0 " + WIDTH + " " + HEIGHT + "\" role=\"img\">";
  }

  /**
   * Both axes, with round ticks and their labels: x from 0 to {@code maxX} over the plot's width, y from 0 to
   * {@code maxY} over its height (as the charts place their points), and each axis's title.
   */
  private static String axes(String x, String y, double maxX, double maxY) {
    StringBuilder a = new StringBuilder();
    a.append("<line x1=\"40\" y1=\"").append(HEIGHT - 30).append("\" x2=\"").append(WIDTH - 20).append("\" y2=\"").append(HEIGHT - 30)
        .append("\" stroke=\"#888\"/><line x1=\"40\" y1=\"20\" x2=\"40\" y2=\"").append(HEIGHT - 30).append("\" stroke=\"#888\"/>");
    double xStep = Ticks.step(maxX, 8);
    for (double t : Ticks.of(maxX, 8)) {
      String at = fmt(40 + t / Math.max(maxX, 1e-9) * (WIDTH - 60));
      a.append("<line class=tick x1=\"").append(at).append("\" y1=\"").append(HEIGHT - 30).append("\" x2=\"").append(at)
          .append("\" y2=\"").append(HEIGHT - 26).append("\" stroke=\"#888\"/><text class=tick x=\"").append(at).append("\" y=\"")
          .append(HEIGHT - 15).append("\" font-size=\"10\" text-anchor=\"middle\">").append(Ticks.label(t, xStep)).append("</text>");
    }
    double yStep = Ticks.step(maxY, 4);
    for (double t : Ticks.of(maxY, 4)) {
      String at = fmt(HEIGHT - 30 - t / Math.max(maxY, 1e-9) * (HEIGHT - 50));
      a.append("<line class=tick x1=\"36\" y1=\"").append(at).append("\" x2=\"40\" y2=\"").append(at)
          .append("\" stroke=\"#888\"/><text class=tick x=\"34\" y=\"").append(at).append("\" font-size=\"10\" text-anchor=\"end\""
          + " dominant-baseline=\"middle\">").append(Ticks.label(t, yStep)).append("</text>");
    }
    a.append("<text x=\"").append(WIDTH / 2).append("\" y=\"").append(HEIGHT - 2).append("\" font-size=\"12\" text-anchor=\"middle\">")
        .append(esc(x)).append("</text><text x=\"44\" y=\"14\" font-size=\"12\">").append(esc(y)).append("</text>");
    return a.toString();
  }

  private static SortableTable.Cell number(double value, Object shown) {
    return SortableTable.Cell.number(value, String.valueOf(shown));
  }

  private static String td(Object value) {
    return "<td>" + esc(String.valueOf(value)) + "</td>";
  }

  static String fmt(double value) {
    return String.format(Locale.ROOT, value >= 100 ? "%.0f" : "%.2f", value);
  }

  static String esc(String s) {
    return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
