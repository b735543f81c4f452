package io.ferry.support;

import io.ferry.Ferry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Ferry in a JVM of its own, as {@code jobs/migrate.sh} starts it (local Spark, the test classpath): what a test
 * kills with SIGKILL mid-run, where no finally block or shutdown hook runs.
 */
public final class FerryProcess {
  private FerryProcess() {}

  /**
   * Starts {@code ferry <command...> <conf>}; its console goes to {@code log}; {@code environment} adds variables
   * (the secrets a job file reads with {@code ${?NAME}}).
   */
  public static Process start(Path conf, Path log, Map<String, String> environment, String... command) throws Exception {
    return start(conf, log, environment, List.of(), command);
  }

  /** As {@link #start(Path, Path, Map, String...)}, with {@code options} for the JVM (system properties). */
  public static Process start(Path conf, Path log, Map<String, String> environment, List<String> options, String... command)
      throws Exception {
    List<String> c = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g"));
    c.addAll(options);
    for (String opt : System.getProperty("ferry.spark.jvm.opens", "").trim().split("\\s+")) if (!opt.isEmpty()) c.add(opt);
    c.addAll(List.of("-Dspark.ui.enabled=false", "-cp", System.getProperty("java.class.path"), Ferry.class.getName()));
    c.addAll(List.of(command));
    c.add(conf.toString());
    ProcessBuilder builder = new ProcessBuilder(c).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    return builder.start();
  }
}
