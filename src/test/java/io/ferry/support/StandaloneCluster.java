package io.ferry.support;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A real Spark standalone cluster on loopback, from the Maven-built Spark home ({@code target/spark-home/jars}): a
 * Master and workers, each in its own JVM, and {@code SparkSubmit} as one more child JVM. Executors are JVMs the
 * workers launch.
 */
public final class StandaloneCluster implements AutoCloseable {
  private final Path sparkHome;
  private final Path logs;
  private final List<Process> processes = new ArrayList<>();
  private final int masterPort;
  private final int masterUiPort;

  private StandaloneCluster(Path sparkHome, Path logs) throws IOException {
    this.sparkHome = sparkHome;
    this.logs = logs;
    this.masterPort = freePort();
    this.masterUiPort = freePort();
  }

  public static Path sparkHome() {
    Path home = Path.of(System.getProperty("ferry.spark.home", "target/spark-home"));
    if (!Files.isDirectory(home.resolve("jars"))) throw new IllegalStateException("no Spark jars at " + home + "/jars: run mvn verify");
    return home.toAbsolutePath();
  }

  /** Starts a master and {@code workers} workers of one core each, and waits until all have registered. */
  public static StandaloneCluster start(Path logs, int workers, String workerMemory) throws Exception {
    Files.createDirectories(logs);
    StandaloneCluster cluster = new StandaloneCluster(sparkHome(), logs);
    try {
      cluster.spawn("master", List.of("-Xmx768m", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
          "--port", String.valueOf(cluster.masterPort), "--webui-port", String.valueOf(cluster.masterUiPort)), Map.of());
      for (int i = 0; i < workers; i++) {
        Path workDir = logs.resolve("worker-" + i);
        Files.createDirectories(workDir);
        cluster.spawn("worker-" + i, List.of("-Xmx768m", "org.apache.spark.deploy.worker.Worker", cluster.masterUrl(), "--host",
            "127.0.0.1",
            "--cores", "1", "--memory", workerMemory, "--webui-port", String.valueOf(freePort()), "--work-dir", workDir.toString()),
                Map.of());
      }
      cluster.awaitWorkers(workers, 120);
      return cluster;
    } catch (Exception e) {
      cluster.close();
      throw e;
    }
  }

  public String masterUrl() {
    return "spark://127.0.0.1:" + masterPort;
  }

  /** Runs {@code SparkSubmit} in client mode with the given arguments; returns its exit code; output in logs/submit.log. */
  public int submit(List<String> arguments, Map<String, String> environment, long timeoutSeconds) throws Exception {
    return submit(List.of("-Xmx768m"), arguments, environment, timeoutSeconds);
  }

  /** As {@link #submit(List, Map, long)}, the driver's JVM started with {@code jvmOptions} (its heap, GC logging). */
  public int submit(List<String> jvmOptions, List<String> arguments, Map<String, String> environment, long timeoutSeconds)
      throws Exception {
    List<String> args = new ArrayList<>(jvmOptions);
    args.addAll(List.of("org.apache.spark.deploy.SparkSubmit", "--master", masterUrl(), "--deploy-mode", "client"));
    args.addAll(arguments);
    Process submit = spawn("submit", args, environment);
    if (!submit.waitFor(timeoutSeconds, java.util.concurrent.TimeUnit.SECONDS)) {
      submit.descendants().forEach(ProcessHandle::destroyForcibly);
      submit.destroyForcibly();
      throw new IllegalStateException("spark-submit did not finish within " + timeoutSeconds + " s; see " + logs.resolve("submit.log"));
    }
    return submit.exitValue();
  }

  /** The executor JVMs the workers launched (for a test that kills one). */
  public java.util.List<ProcessHandle> executors() {
    return processes.stream().flatMap(Process::descendants)
        .filter(p -> p.info().commandLine().orElse("").contains("CoarseGrainedExecutorBackend")).toList();
  }

  /** Starts {@code SparkSubmit} like {@link #submit}, without waiting for it. */
  public Process submitAsync(List<String> arguments, Map<String, String> environment) throws IOException {
    List<String> args = new ArrayList<>(List.of("-Xmx768m", "org.apache.spark.deploy.SparkSubmit", "--master", masterUrl(),
        "--deploy-mode", "client"));
    args.addAll(arguments);
    return spawn("submit", args, environment);
  }

  public String log(String name) throws IOException {
    return Files.readString(logs.resolve(name + ".log"), StandardCharsets.UTF_8);
  }

  /** The cluster's shared secret of Spark's RPC authentication (a test's own, fresh for each JVM running tests). */
  private static final String AUTH_SECRET = java.util.UUID.randomUUID().toString();

  /** @param jvmAndMain JVM options (at least the heap), then the main class and its arguments */
  private Process spawn(String name, List<String> jvmAndMain, Map<String, String> environment) throws IOException {
    int main = 0;
    while (jvmAndMain.get(main).startsWith("-")) main++;
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmAndMain.subList(0, main));
    command.addAll(Arrays.asList(System.getProperty("ferry.spark.jvm.opens", "").trim().split("\\s+")));
    command.add("-Dspark.master.rest.enabled=false");
    // as a shared cluster should run Ferry: RPC authenticated and encrypted, since tasks carry the job's settings
    command.add("-Dspark.authenticate=true");
    command.add("-Dspark.authenticate.secret=" + AUTH_SECRET);
    command.add("-Dspark.network.crypto.enabled=true");
    command.add("-cp");
    command.add(sparkHome.resolve("jars") + "/*");
    command.addAll(jvmAndMain.subList(main, jvmAndMain.size()));
    command.removeIf(String::isEmpty);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(logs.resolve(name + ".log").toFile());
    builder.environment().put("SPARK_HOME", sparkHome.toString());
    builder.environment().put("SPARK_SCALA_VERSION", "2.13");
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    builder.environment().putAll(environment);
    Process process = builder.start();
    processes.add(process);
    return process;
  }

  private void awaitWorkers(int expected, int timeoutSeconds) throws Exception {
    long deadline = System.nanoTime() + timeoutSeconds * 1_000_000_000L;
    String last = "";
    while (System.nanoTime() < deadline) {
      try {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + masterUiPort + "/json/").toURL().openConnection();
        c.setConnectTimeout(1000);
        c.setReadTimeout(2000);
        last = new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        var node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(last);
        if (node.path("aliveworkers").asInt() >= expected) return;
      } catch (IOException notYet) {
        // master not up yet
      }
      for (Process p : processes) {
        if (!p.isAlive()) throw new IllegalStateException("a cluster process exited early; see logs in " + logs);
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException(expected + " workers did not register within " + timeoutSeconds + " s: " + last);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Override
  public void close() {
    for (int i = processes.size() - 1; i >= 0; i--) {
      Process p = processes.get(i);
      p.descendants().forEach(ProcessHandle::destroy);
      p.destroy();
    }
    for (Process p : processes) {
      try {
        if (!p.waitFor(15, java.util.concurrent.TimeUnit.SECONDS)) {
          p.descendants().forEach(ProcessHandle::destroyForcibly);
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
