package io.ferry.spark.run;

import io.ferry.config.ArchivedConfig;
import io.ferry.config.ArchivedConfig.Policy;
import io.ferry.config.BucketConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.copy.CopyMethod;
import io.ferry.plan.CutOverPlan;
import io.ferry.plan.Decision;
import io.ferry.plan.Estimate;
import io.ferry.plan.PlanTotals;
import io.ferry.plan.Retrieval;
import io.ferry.report.RunFolder;
import io.ferry.report.Units;
import io.ferry.spark.CopySettings;
import io.ferry.spark.ExecutorContext;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Serializable;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaSparkContext;

/** What {@code ferry plan} prints: the plan a run would follow, and what it would cost. */
final class DryRunConsole {
  private DryRunConsole() {}

  /**
   * The dry run's plan: what a run would copy, set aside and delete, the requests it would send, what they cost and
   * how long the copy takes.
   */
  static void print(RunContext run, Planned planned, Modes modes) throws IOException {
    MigrationConfig config = run.config();
    CopyMethod method = run.method();
    CopySettings settings = run.settings();
    PrintStream out = run.out();
    PlanTotals plan = planned.totals();
    out.printf("Plan for %s: %s -> %s%n", config.jobName(), config.source().describe(), config.destination().describe());
    out.printf("  objects   %d to copy (%d split into ranges), %d skipped unchanged, %d rejected, %d left out by size or time,"
        + " %d listed%s%n", plan.objects(), plan.splitObjects(), plan.unchanged(), plan.rejected(), plan.filtered(),
        planned.notes().listing().listed(), planned.setAside().missingCount() == 0 ? ""
        : ", " + planned.setAside().missingCount() + " missing at the source");
    out.printf("  bytes     %s (%d)%n", Units.bytes(plan.bytes()), plan.bytes());
    out.printf("  ranges    %d in %d tasks; method %s%n", plan.ranges(), plan.tasks(), MigrationJob.methodName(method));
    modes.replay().ifPresent(r -> out.println("  " + r.line(planned).toLowerCase(Locale.ROOT).replaceFirst("versions ", "versions  ")));
    planned.notes().partSize().ifPresent(line -> out.printf("  part size %s%n", line));
    Console.autoStreams(config.copy()).ifPresent(line -> out.printf("  streams   %s%n", line));
    printEstimate(config, run.jsc(), method, plan, planned, out);
    out.printf("  listed    in %s%n", planned.notes().listedIn());
    if (modes.delta().isPresent()) printWindow(run, planned.notes().listing().listed(), modes.delta().get().hoursSinceLast());
    List<Decision> rejected = planned.setAside().of(Decision.Kind.REJECTED).takeOrdered(SAMPLE, new ByKey());
    rejected.forEach(r -> out.printf("  rejected  %s: %s%n", r.object().key(), r.reason()));
    if (plan.rejected() > rejected.size()) out.printf("  rejected  ... and %d more%n", plan.rejected() - rejected.size());
    if (plan.notCopied() > 0) out.printf("  not copied %d symbolic links (source.symlinks)%n", plan.notCopied());
    if (plan.extraneous() > 0) {
      var cutOver = config.destination().cutOver();
      out.printf("  extraneous %d objects (%s) at the destination, in the selection, that the source's listing lacks%s%n",
          plan.extraneous(), Units.bytes(plan.extraneousBytes()), cutOver.enabled() ? ""
              : ": kept (destination.delete-extraneous is off)");
      if (cutOver.enabled()) {
        // as a run that copies everything it selects would decide
        CutOverPlan decision = CutOverPlan.decide(cutOver, plan.extraneous(), plan.objects() + plan.unchanged(), 0, plan.rejected(),
            plan.notCopied(), plan.archived());
        String verb = cutOver.moves() ? "would move to " + cutOver.moveTo() : "would delete";
        if (decision.outcome() == CutOverPlan.Outcome.RUN) {
          out.printf("  cut-over  %d of the %d objects the destination holds in the selection once the run copied (cap"
              + " destination.max-delete = %s), each looked up at the source first and kept if it holds it%n", plan.extraneous(),
              plan.objects() + plan.unchanged() + plan.extraneous(), cutOver.cap());
          List<Decision> sample = planned.setAside().of(Decision.Kind.EXTRANEOUS).takeOrdered(SAMPLE, new ByKey());
          sample.forEach(d -> out.printf("  %s %s (%s)%n", verb, ExecutorContext.destination(settings).location(d.object()),
              Units.bytes(d.object().size())));
          if (plan.extraneous() > sample.size()) out.printf("  %s ... and %d more%n", verb, plan.extraneous() - sample.size());
        } else {
          out.printf("  cut-over  %s: %s%n", decision.outcome() == CutOverPlan.Outcome.SKIPPED ? "would be skipped" : "would be refused",
              decision.reason());
        }
      }
    }
  }

  /** The requests by side and kind, the bytes leaving the source, what they cost at the configured prices, and how long the copy takes. */
  private static void printEstimate(MigrationConfig config, JavaSparkContext jsc, CopyMethod method, PlanTotals plan,
      Planned planned, PrintStream out) throws IOException {
    boolean fromBucket = config.source().store() instanceof BucketConfig;
    Estimate.Route route = switch (method) {
      case SERVER_SIDE_COPY -> Estimate.Route.SERVER_SIDE;
      case STREAM_TO_FILE -> fromBucket ? Estimate.Route.BUCKET_TO_FILE : Estimate.Route.FILE_TO_FILE;
      case STREAM_TO_BUCKET -> fromBucket ? Estimate.Route.BUCKET_TO_BUCKET : Estimate.Route.FILE_TO_BUCKET;
    };
    long checked = !config.source().manifest().isEmpty() && config.source().checkManifest() ? planned.notes().listing().listed() : 0;
    Estimate e = Estimate.of(plan, route, planned.notes().listing().pages(), planned.notes().existing().pages(), checked);
    String source = fromBucket
        ? String.format(Locale.ROOT, "source: %d LIST pages, %d HEAD%s", e.sourceList(), e.sourceHead(),
            method == CopyMethod.SERVER_SIDE_COPY ? "" : ", " + e.get() + " GET")
        : "source: " + plan.gets() + " file reads";
    String destination = switch (route) {
      case BUCKET_TO_BUCKET, FILE_TO_BUCKET -> String.format(Locale.ROOT,
          "destination: %d LIST pages, %d PutObject, %d UploadPart, %d CreateMultipartUpload + CompleteMultipartUpload",
          e.destinationList(), e.put(), e.uploadPart(), e.create());
      case SERVER_SIDE -> String.format(Locale.ROOT, "destination: %d LIST pages, %d CopyObject, %d UploadPartCopy, "
          + "%d CreateMultipartUpload + CompleteMultipartUpload (no bytes through Spark)", e.destinationList(), e.copyObject(),
          e.uploadPartCopy(), e.create());
      case BUCKET_TO_FILE, FILE_TO_FILE -> "destination: file writes";
    };
    out.printf("  requests  %s; %s%n", source, destination);
    if (plan.archived() > 0) printArchived(config.source().archived(), plan, out);
    double sourceCost = e.sourceCost(config.estimate().source()), destinationCost = e.destinationCost(config.estimate().destination());
    boolean payer = config.source().store() instanceof BucketConfig b && b.endpoint().requesterPays();
    out.printf(Locale.ROOT, "  cost      $%.2f: source $%.2f (%s leaving it%s), destination $%.2f, at the estimate.* prices%n",
        sourceCost + destinationCost, sourceCost, Units.bytes(e.egressBytes()), payer ? "; Requester Pays: billed to you, not to the"
        + " bucket's owner" : "", destinationCost);
    double rate = config.estimate().expectedMBps();
    String basis = "estimate.mb-per-s";
    if (rate == 0) {
      RunFolder.Rate last = RunFolder.lastRate(jsc.hadoopConfiguration(), config.reportPath(), config.jobName());
      if (last != null) {
        rate = last.megabytesPerSecond();
        basis = "the aggregate of run " + last.run();
      }
    }
    if (rate > 0) {
      out.printf(Locale.ROOT, "  time      %s to copy at %.1f MB/s (%s)%n", Units.duration(plan.bytes() / 1e6 / rate), rate, basis);
    } else {
      out.printf("  time      unknown until a run of this job has copied, or estimate.mb-per-s is set%n");
    }
  }

  /** A delta's projection of the next pass and of the cut-over window, from the newest pass of the job that measured one. */
  private static void printWindow(RunContext run, long keys, double hoursSinceLast) throws IOException {
    MigrationConfig config = run.config();
    RunFolder.Measured last = RunFolder.lastConvergence(run.jsc().hadoopConfiguration(), config.reportPath(), config.jobName());
    run.out().printf("  window    %s%n", last == null ? "known once a delta pass of this job has run"
        : last.convergence().project(keys, hoursSinceLast).line(last.run()));
  }

  /** The archived objects, what {@code source.archived} does with them, and what restoring them costs and takes. */
  private static void printArchived(ArchivedConfig archived, PlanTotals plan, PrintStream out) {
    String what = switch (archived.policy()) {
      case FAIL -> "each a failure of the run, no request sent (source.archived = fail; restore restores them, skip leaves them)";
      case SKIP -> "each left and reported (source.archived = skip)";
      case RESTORE -> plan.restores() + " restores to request, " + (plan.archived() - plan.restores()) + " under way";
    };
    out.printf("  archived  %d objects archived at the source (each asked a HEAD by the listing): %s%n", plan.archived(), what);
    if (archived.policy() == Policy.RESTORE && plan.restores() > 0) {
      Retrieval r = Retrieval.of(archived.tier());
      out.printf(Locale.ROOT, "  restore   %d RestoreObject, %s (%s, %d days): $%.2f at AWS Glacier Flexible Retrieval's list prices"
          + " ($%.2f per 1,000 requests, $%.4f per GB); ready in %s; a rerun copies them once restored%n", plan.restores(),
          Units.bytes(plan.restoreBytes()), r.tier(), archived.days(), r.cost(plan.restores(), plan.restoreBytes()), r.perThousand(),
          r.perGB(), r.waits());
    }
  }

  /** Lines of a kind that {@code plan} prints at most. */
  private static final int SAMPLE = 20;

  /** Decisions in key order (serializable, for takeOrdered). */
  static final class ByKey implements Comparator<Decision>, Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public int compare(Decision a, Decision b) {
      return a.object().key().compareTo(b.object().key());
    }
  }
}
