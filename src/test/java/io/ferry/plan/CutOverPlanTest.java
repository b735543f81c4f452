package io.ferry.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.config.CutOver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CutOverPlanTest {
  @ParameterizedTest(name = "on {0}, cap {1}: {2} beside {3} copied, {4} failed, {5} rejected -> {6}")
  @CsvSource(delimiter = '|', value = {
      // on,  max-delete, extraneous, copied or unchanged, failed, rejected, outcome, in the reason
      "false | 50%       | 5          | 5           | 0      | 0        | NONE    | ''",
      "true  | 50%       | 0          | 10          | 3      | 0        | NONE    | ''",
      "true  | 50%       | 5          | 5           | 0      | 0        | RUN     | ''",
      "true  | 50%       | 6          | 4           | 0      | 0        | REFUSED | the selection once this run copied (60.0%)",
      "true  | 50%       | 1          | 0           | 0      | 0        | REFUSED | (100.0%)",
      "true  | 50%       | 3000       | 0           | 0      | 0        | REFUSED | 3000 of the 3000 objects",
      "true  | 100%      | 10         | 0           | 0      | 0        | RUN     | ''",
      "true  | 0%        | 1          | 999999      | 0      | 0        | REFUSED | over ferry.destination.max-delete = 0%",
      "true  | 12.5%     | 1          | 7           | 0      | 0        | RUN     | ''",
      "true  | 12.5%     | 2          | 6           | 0      | 0        | REFUSED | max-delete = 12.5%",
      "true  | 1000      | 1000       | 0           | 0      | 0        | RUN     | ''",
      "true  | 1000      | 1001       | 100000      | 0      | 0        | REFUSED | max-delete = 1000",
      "true  | 100%      | 5          | 5           | 1      | 0        | SKIPPED | 1 objects failed",
      "true  | 100%      | 5          | 5           | 0      | 2        | SKIPPED | 2 objects were rejected",
      "true  | 100%      | 5          | 5           | 1      | 2        | SKIPPED | 1 objects failed",
  })
  void thePassRunsOnlyAfterARunThatCopiedEverythingAndWithinItsCap(boolean on, String cap, long extraneous, long copied,
      long failed, long rejected, CutOverPlan.Outcome outcome, String reason) {
    CutOverPlan plan = CutOverPlan.decide(CutOver.of(on, cap, ""), extraneous, copied, failed, rejected);
    assertThat(plan.outcome()).isEqualTo(outcome);
    assertThat(plan.reason()).contains(reason);
  }

  @Test
  void archivedObjectsNotCopiedStopThePassAsAnyObjectNotCopiedDoes() {
    CutOverPlan plan = CutOverPlan.decide(CutOver.of(true, "100%", ""), 3, 5, 0, 0, 0, 2);
    assertThat(plan.outcome()).isEqualTo(CutOverPlan.Outcome.SKIPPED);
    assertThat(plan.reason()).startsWith("2 objects archived at the source were not copied");
    assertThat(CutOverPlan.decide(CutOver.of(true, "100%", ""), 3, 5, 0, 0, 0, 0).outcome()).isEqualTo(CutOverPlan.Outcome.RUN);
  }

  @Test
  void linksLeftAtTheSourceStopThePassForTheFolderTheyMayStandFor() {
    CutOverPlan plan = CutOverPlan.decide(CutOver.of(true, "100%", ""), 3, 5, 0, 0, 1);
    assertThat(plan.outcome()).isEqualTo(CutOverPlan.Outcome.SKIPPED);
    assertThat(plan.reason()).contains("1 symbolic links were reported");
    assertThat(CutOverPlan.decide(CutOver.of(true, "100%", ""), 3, 5, 0, 0, 0).outcome()).isEqualTo(CutOverPlan.Outcome.RUN);
  }
}
