package io.ferry.report;

import static io.ferry.report.HtmlReport.HEIGHT;
import static io.ferry.report.HtmlReport.WIDTH;
import static io.ferry.report.HtmlReport.esc;
import static io.ferry.report.HtmlReport.fmt;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The tasks of a run's copy over time, a bar each, in lanes per executor (the run page's "Tasks over time"). */
final class LanesChart {
  /** Where the bars begin: room for "executor 123" on the left. */
  private static final int LANE_LEFT = 110;
  /** Bars the chart draws at most (the longest tasks); the partitions dataset has them all. */
  private static final int LANE_BARS = 2000;

  private LanesChart() {}

  /**
   * A bar per task of the copy, from its first range's start to its last range's end, in lanes: each executor gets as
   * many as it ran tasks at once (a task goes to the first of its lanes free by its start), so no bar hides another.
   * The tasks still running in the copy's tail ({@code tailStartMillis}, {@link RunStats#tailStartMillis}) are its
   * stragglers: outlined in red, the tail's start a dashed line.
   */
  static String of(List<PartitionStats> partitions, long tailStartMillis) {
    if (partitions.isEmpty()) return "<p>No tasks copied anything.</p>";
    List<PartitionStats> drawn = partitions.stream().sorted(Comparator.comparingDouble(PartitionStats::seconds).reversed())
        .limit(LANE_BARS).sorted(Comparator.comparingLong(PartitionStats::startedAtMillis)).toList();
    TreeMap<String, List<Long>> laneEnds = new TreeMap<>(); // per executor: when each of its lanes is free
    Map<PartitionStats, int[]> placed = new HashMap<>();
    for (PartitionStats p : drawn) {
      List<Long> ends = laneEnds.computeIfAbsent(p.executor(), e -> new ArrayList<>());
      int lane = 0;
      while (lane < ends.size() && ends.get(lane) > p.startedAtMillis()) lane++;
      if (lane == ends.size()) ends.add(0L);
      ends.set(lane, p.finishedAtMillis());
      placed.put(p, new int[] {lane});
    }
    Map<String, Integer> firstRow = new HashMap<>();
    int rows = 0;
    for (var e : laneEnds.entrySet()) {
      firstRow.put(e.getKey(), rows);
      rows += e.getValue().size();
    }
    long start = drawn.stream().mapToLong(PartitionStats::startedAtMillis).min().orElse(0);
    long end = Math.max(start + 1, drawn.stream().mapToLong(PartitionStats::finishedAtMillis).max().orElse(start + 1));
    double maxRate = Math.max(0.001, drawn.stream().mapToDouble(PartitionStats::megabytesPerSecond).max().orElse(1));
    int lane = Math.max(3, Math.min(24, (HEIGHT * 2 - 50) / Math.max(1, rows)));
    int height = 50 + lane * rows;
    StringBuilder bars = new StringBuilder();
    for (PartitionStats p : drawn) {
      double x = LANE_LEFT + (p.startedAtMillis() - start) / (double) (end - start) * (WIDTH - LANE_LEFT - 20);
      double w = Math.max(1, (p.finishedAtMillis() - p.startedAtMillis()) / (double) (end - start) * (WIDTH - LANE_LEFT - 20));
      bar(bars, p, new Box(x, 20 + (firstRow.get(p.executor()) + placed.get(p)[0]) * lane, w, Math.max(1, lane - 1)),
          (int) (200 - 150 * p.megabytesPerSecond() / maxRate), p.finishedAtMillis() > tailStartMillis);
    }
    boolean tail = tailStartMillis > start && tailStartMillis < end;
    if (tail) {
      String at = fmt(LANE_LEFT + (tailStartMillis - start) / (double) (end - start) * (WIDTH - LANE_LEFT - 20));
      bars.append("<line class=tail x1=\"").append(at).append("\" x2=\"").append(at).append("\" y1=\"16\" y2=\"")
          .append(20 + rows * lane).append("\" stroke=\"#d62728\" stroke-dasharray=\"4 3\"><title>the tail: from here fewer than half the"
          + " most streams busy at once were busy</title></line>");
    }
    StringBuilder labels = new StringBuilder();
    for (var e : firstRow.entrySet()) {
      int lanesOf = laneEnds.get(e.getKey()).size();
      labels.append("<text x=\"4\" y=\"").append(20 + e.getValue() * lane + Math.min(lanesOf * lane, 24) / 2 + 4)
          .append("\" font-size=\"11\">executor ").append(esc(e.getKey())).append("</text>");
      if (e.getValue() > 0) labels.append("<line x1=\"0\" x2=\"").append(WIDTH).append("\" y1=\"").append(20 + e.getValue() * lane - 1)
          .append("\" y2=\"").append(20 + e.getValue() * lane - 1).append("\" stroke=\"#ddd\"/>");
    }
    return "<svg width=\"" + WIDTH + "\" height=\"" + height + "\" viewBox=\"0 0 " + WIDTH + " " + height + "\" role=\"img\">" + labels
        + bars
        + "<text x=\"" + LANE_LEFT + "\" y=\"" + (height - 10) + "\" font-size=\"12\">seconds: 0 – " + fmt((end - start) / 1000.0)
        + "; a lane per task an executor ran at once; darker: faster" + (tail ? "; red: in the tail" : "")
        + (partitions.size() > drawn.size() ? "; the " + drawn.size() + " longest of " + partitions.size() + " tasks" : "")
        + "</text></svg>";
  }


  /** Where a bar is drawn. */
  private record Box(double x, int y, double width, int height) {}

  /** One task's bar: its shade its rate, outlined red where it ran into the tail, its figures on hover. */
  private static void bar(StringBuilder bars, PartitionStats p, Box box, int shade, boolean straggler) {
    bars.append("<rect class=\"task").append(straggler ? " straggler" : "").append("\" x=\"").append(fmt(box.x())).append("\" y=\"")
        .append(box.y()).append("\" width=\"").append(fmt(box.width()))
        .append("\" height=\"").append(box.height()).append("\" fill=\"rgb(").append(shade).append(',').append(shade)
        .append(",255)\"").append(straggler ? " stroke=\"#d62728\" stroke-width=\"1.5\"" : "").append("><title>task ")
        .append(p.partition()).append(" on ").append(esc(p.executor())).append(" (").append(esc(p.host()))
        .append("): ").append(p.ranges()).append(" ranges, ").append(esc(Units.bytes(p.bytes()))).append(" in ").append(fmt(p.seconds()))
        .append(" s, ").append(fmt(p.megabytesPerSecond())).append(" MB/s").append(p.retries() > 0 ? ", " + p.retries() + " retries" : "")
        .append(straggler ? "; running in the copy's tail" : "").append("</title></rect>");
  }
}
