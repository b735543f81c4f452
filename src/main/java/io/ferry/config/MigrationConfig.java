package io.ferry.config;

import java.io.Serializable;
import java.util.Objects;

/** The whole job, typed and validated once by {@link ConfigLoader}. */
public record MigrationConfig(
    String jobName,
    SourceConfig source,
    DestinationConfig destination,
    PlanConfig plan,
    CopyConfig copy,
    ReportConfig report,
    EstimateConfig estimate,
    LimitsConfig limits,
    String sparkMaster)
    implements Serializable {
  public MigrationConfig {
    Objects.requireNonNull(jobName, "jobName is null");
    Objects.requireNonNull(source, "source is null");
    Objects.requireNonNull(destination, "destination is null");
    Objects.requireNonNull(plan, "plan is null");
    Objects.requireNonNull(copy, "copy is null");
    Objects.requireNonNull(report, "report is null");
    Objects.requireNonNull(estimate, "estimate is null");
    Objects.requireNonNull(limits, "limits is null");
    Objects.requireNonNull(sparkMaster, "sparkMaster is null");
  }

  /** The same job into {@code to}. */
  public MigrationConfig withDestination(DestinationConfig to) {
    return new MigrationConfig(jobName, source, to, plan, copy, report, estimate, limits, sparkMaster);
  }

  /** Where the run's datasets and report go ({@code report.path}). */
  public String reportPath() {
    return report.path();
  }
}
