package io.ferry.spark.run;

import io.ferry.commit.ObjectResult;
import io.ferry.plan.CopyTask;
import io.ferry.plan.Decision;
import io.ferry.spark.HardLinks;
import io.ferry.spark.Held;
import io.ferry.spark.JobFailure;
import io.ferry.store.StoreObject;
import java.io.IOException;
import java.util.Optional;
import org.apache.spark.api.java.JavaRDD;

/**
 * A capability a run may have besides copying (a replay of versions, restores of archived objects, hard links),
 * chosen once from the job ({@link Modes}). Each stage asks every mode the run has at the same points; where a mode
 * has nothing to do there, the hook passes its input on.
 */
interface Mode {
  /** What PLAN copies, and what it sets aside besides the decisions. */
  record Chosen(JavaRDD<StoreObject> toCopy, JavaRDD<ObjectResult> restoring, JavaRDD<HardLinks.Link> links) {}

  /** What COPY and COMMIT made: the copy's ranges and when it ran, and each object's result. */
  record Committed(CopyStage.Copied copied, JavaRDD<ObjectResult> objects) {}

  /** PLAN: what is copied, from each key's decision. */
  default Chosen chosen(RunContext run, JavaRDD<Decision> decisions, Chosen chosen, Held cache) {
    return chosen;
  }

  /** Once the plan is made: its line for the console, if it has one. */
  default Optional<String> planned(RunContext run, Planned planned) throws IOException {
    return Optional.empty();
  }

  /** OPEN: before a generation's objects are written (the plan's are generation 0). */
  default void writing(RunContext run, JavaRDD<CopyTask> tasks, int generation) {}

  /** After COMMIT: what it made, and what this mode adds to it. */
  default Committed committed(RunContext run, Planned planned, Committed committed) throws JobFailure, IOException {
    return committed;
  }

  /** At the run's end, whether it failed or not. */
  default void ended(RunContext run) throws IOException {}
}
