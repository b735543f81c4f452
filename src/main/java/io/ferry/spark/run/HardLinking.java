package io.ferry.spark.run;

import io.ferry.plan.Decision;
import io.ferry.spark.HardLinks;
import io.ferry.spark.Held;
import org.apache.spark.api.java.JavaRDD;

/**
 * Hard links kept ({@code source.hard-links}): PLAN copies one name of each file with several, and after COMMIT (LINK)
 * each of its other names is made a hard link to that copy.
 */
final class HardLinking implements Mode {
  @Override
  public Chosen chosen(RunContext run, JavaRDD<Decision> decisions, Chosen chosen, Held cache) {
    JavaRDD<HardLinks.Named> named = cache.persist(HardLinks.plan(decisions, run.settings(), decisions.getNumPartitions()));
    return new Chosen(named.filter(n -> n.copy() != null).map(HardLinks.Named::copy), chosen.restoring(),
        named.filter(n -> n.link() != null).map(HardLinks.Named::link));
  }

  @Override
  public Committed committed(RunContext run, Planned planned, Committed committed) {
    run.jsc().setJobGroup("LINK", "LINK: each file's other names made hard links to its copy", true);
    return new Committed(committed.copied(), run.held().persist(committed.objects().union(HardLinks.link(planned.links(),
        committed.objects(), run.settings()))));
  }
}
