package io.ferry.spark.run;

import io.ferry.commit.ObjectResult;
import io.ferry.plan.Decision;
import io.ferry.plan.PlanTotals;
import io.ferry.spark.Held;
import io.ferry.spark.RestoreFunction;
import java.util.HashMap;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;

/**
 * Restores of archived objects ({@code source.archived = restore}): in the plan, on the executors, before anything is
 * copied, so that the store starts on the restores while the rest copies. An object found readable is copied by this
 * run; the others are RESTORING rows (FAILED where the request failed).
 */
final class Restoring implements Mode {
  /** What the executors' restores need of the run, and the count of those they requested. */
  private final RestoreFunction.Context context;

  Restoring(RunContext run) {
    context = new RestoreFunction.Context(run.ledgerDirectory(), run.hadoop(),
        run.held().broadcast(run.jsc().broadcast(new HashMap<>(run.earlier().restores()))),
        run.jsc().sc().longAccumulator("restores requested"));
  }

  @Override
  public Chosen chosen(RunContext run, JavaRDD<Decision> decisions, Chosen chosen, Held cache) {
    // cached: each archived object is asked once (a recomputed partition would send its restores again)
    JavaRDD<RestoreFunction.Restored> restored = cache.persist(decisions.filter(d -> d.kind() == Decision.Kind.RESTORE)
        .mapPartitions(new RestoreFunction(run.settings(), context)));
    return new Chosen(chosen.toCopy().union(restored.filter(r -> r.readable() != null).map(RestoreFunction.Restored::readable)),
        restored.filter(r -> r.result() != null).map(RestoreFunction.Restored::result), chosen.links());
  }

  /** What the restores did: requested now, objects found readable and copied by this run, the rest restoring. */
  @Override
  public Optional<String> planned(RunContext run, Planned planned) {
    PlanTotals plan = planned.totals();
    if (plan.archived() == 0) return Optional.empty();
    JavaRDD<ObjectResult> restoring = run.held().persist(planned.setAside().restoring());
    long failed = restoring.filter(o -> o.status() == ObjectResult.Status.FAILED).count();
    long pending = restoring.count() - failed;
    var archived = run.settings().source().archived();
    return Optional.of(String.format("RESTORE %d archived objects at the source: %d restores requested now (%s, %d days), %d restoring,"
        + " %d restored and copied by this run%s", plan.archived(), context.requested().value(), archived.tier(), archived.days(), pending,
        plan.archived() - pending - failed, failed == 0 ? "" : "; " + failed + " could not be requested"));
  }
}
