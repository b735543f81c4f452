package io.ferry.spark.run;

import io.ferry.config.ArchivedConfig;
import io.ferry.config.ChangesConfig;
import io.ferry.config.DirectoryConfig;
import io.ferry.config.MigrationConfig;
import io.ferry.plan.CopyTask;
import io.ferry.plan.Decision;
import io.ferry.spark.Held;
import io.ferry.spark.JobFailure;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;

/**
 * The modes a run has, chosen once from its job, in the order their hooks run.
 *
 * @param replay a replay of versions ({@code source.versions = all} into a bucket): PLAN takes another path for it
 * @param delta a delta pass ({@code source.changes} events or inventory-diff): LIST looks up only the keys its changes name
 */
record Modes(Optional<VersionReplay> replay, Optional<Delta> delta, List<Mode> all) {

  /** A run's modes. */
  static Modes of(RunContext run) {
    return choose(run.config(), Optional.of(run));
  }

  /** A dry run's: it plans as a run would, and sends no restore and writes nothing. */
  static Modes dry(MigrationConfig config) {
    return choose(config, Optional.empty());
  }

  /** @param run the run that writes; none for a dry run */
  private static Modes choose(MigrationConfig config, Optional<RunContext> run) {
    boolean writes = run.isPresent();
    List<Mode> all = new ArrayList<>();
    Optional<VersionReplay> replay = Optional.empty();
    if (VersionReplay.replays(config)) {
      replay = Optional.of(new VersionReplay(writes));
      all.add(replay.get());
    }
    Optional<Delta> delta = Optional.empty();
    if (config.source().changes().delta()) {
      delta = Optional.of(config.source().changes() instanceof ChangesConfig.InventoryDiff diff ? new InventoryDelta(diff, writes)
          : new EventDelta(writes));
      all.add(delta.get());
    }
    if (config.source().store() instanceof DirectoryConfig d && d.hardLinks()) all.add(new HardLinking());
    if (writes && config.source().archived().policy() == ArchivedConfig.Policy.RESTORE) all.add(new Restoring(run.get()));
    return new Modes(replay, delta, List.copyOf(all));
  }

  /** Whether what COPY writes is checkpointed: a replay's generation is never written again once later ones ran. */
  boolean keepsCopies() {
    return replay.isPresent();
  }

  Mode.Chosen chosen(RunContext run, JavaRDD<Decision> decisions, Mode.Chosen chosen, Held cache) {
    for (Mode m : all) chosen = m.chosen(run, decisions, chosen, cache);
    return chosen;
  }

  List<String> planned(RunContext run, Planned planned) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Mode m : all) m.planned(run, planned).ifPresent(lines::add);
    return lines;
  }

  void writing(RunContext run, JavaRDD<CopyTask> tasks, int generation) {
    for (Mode m : all) m.writing(run, tasks, generation);
  }

  Mode.Committed committed(RunContext run, Planned planned, Mode.Committed committed) throws JobFailure, IOException {
    for (Mode m : all) committed = m.committed(run, planned, committed);
    return committed;
  }

  void ended(RunContext run) throws IOException {
    for (Mode m : all) m.ended(run);
  }
}
