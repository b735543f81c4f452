package io.ferry.spark.run;

import io.ferry.commit.ObjectResult;
import io.ferry.plan.Decision;
import io.ferry.plan.PlanTotals;
import io.ferry.report.RunInfo;
import io.ferry.report.RunSummary;
import java.io.IOException;
import org.apache.spark.api.java.JavaRDD;

/** REPORT: the datasets and the summary, with the objects set aside, restoring and missing among them. */
final class ReportStage {
  private ReportStage() {}

  /** @param delta a delta pass's changes, or null for a full pass */
  static RunSummary run(RunContext run, Planned planned, Mode.Committed committed, RunSummary.Deletions deletions, RunInfo.Delta delta)
      throws IOException {
    var config = run.config();
    PlanTotals plan = planned.totals();
    JavaRDD<ObjectResult> setAside = planned.setAside().decisions().filter(d -> d.kind() == Decision.Kind.REJECTED
        || d.kind() == Decision.Kind.ARCHIVED || d.kind() == Decision.Kind.NOT_COPIED).map(d -> d.kind() == Decision.Kind.NOT_COPIED
        ? ObjectResult.row(d.object(), "", ObjectResult.Status.NOT_COPIED, d.reason(), "")
        : ObjectResult.failed(d.object(), "", 0, 0, d.reason()));
    JavaRDD<ObjectResult> missing = planned.setAside().missing().map(o -> ObjectResult.row(o, "", ObjectResult.Status.MISSING,
        "named by the manifest; the source no longer holds it", ""));
    RunInfo info = new RunInfo(config.jobName(), run.settings().runId(), config.source().describe(), config.destination().describe(),
        run.started(), planned.notes().listing().selected() - plan.filtered(), plan.unchanged(), plan.splitObjects(),
        planned.notes().listing().pages(), committed.copied().startMillis(), committed.copied().endMillis(), run.stages(), deletions,
        config.limits().bytesPerSecond() / 1e6, delta);
    return Reports.write(run.jsc(), config.report(), info, committed.copied().ranges(),
        committed.objects().union(planned.setAside().restoring()).union(setAside).union(missing));
  }
}
