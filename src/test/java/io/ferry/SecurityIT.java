package io.ferry;

import static org.assertj.core.api.Assertions.assertThat;

import io.ferry.support.WanEmulator;
import io.ferry.config.S3EndpointConfig;
import io.ferry.support.S3ProxyProcess;
import io.ferry.support.SeedData;
import io.ferry.support.Jobs;
import io.ferry.support.TestS3;
import io.ferry.support.Trees;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets appear nowhere a run writes or shows (its output, its reports and ledger, Spark's event log, the Spark UI's
 * pages while it runs), and TLS is verified: an https endpoint whose certificate a private CA signed is refused until
 * that CA is named in {@code ca-bundle}. S3Proxy in its own JVM, with a key store made by the JDK's keytool.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecurityIT {
  private static final long MIB = 1L << 20;
  private static final String IDENTITY = "security-identity";
  private final String secret = "s3cr3t-" + UUID.randomUUID();
  @TempDir static Path work;
  private S3ProxyProcess server;
  private Path caPem;
  private Map<String, String> source;

  @BeforeAll
  void start() throws Exception {
    Path tls = Files.createDirectories(work.resolve("tls"));
    caPem = tls.resolve("ca.pem");
    keytool(tls, "-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=Ferry Test CA", "-ext", "bc:c",
        "-validity", "2", "-keystore", "ca.p12", "-storetype", "PKCS12", "-storepass", "changeit");
    keytool(tls, "-exportcert", "-rfc", "-alias", "ca", "-keystore", "ca.p12", "-storepass", "changeit", "-file", "ca.pem");
    keytool(tls, "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=127.0.0.1", "-validity", "2",
        "-keystore", "server.p12", "-storetype", "PKCS12", "-storepass", "changeit");
    keytool(tls, "-certreq", "-alias", "server", "-keystore", "server.p12", "-storepass", "changeit", "-file", "server.csr");
    keytool(tls, "-gencert", "-alias", "ca", "-keystore", "ca.p12", "-storepass", "changeit", "-infile", "server.csr", "-outfile",
        "server.pem", "-rfc", "-ext", "san=ip:127.0.0.1", "-validity", "2");
    keytool(tls, "-importcert", "-noprompt", "-alias", "ca", "-file", "ca.pem", "-keystore", "server.p12", "-storepass", "changeit");
    keytool(tls, "-importcert", "-noprompt", "-alias", "server", "-file", "server.pem", "-keystore", "server.p12", "-storepass",
        "changeit");
    server = S3ProxyProcess.start(work.resolve("s3"), IDENTITY, secret, "filesystem-nio2",
        new S3ProxyProcess.Tls(tls.resolve("server.p12"), "changeit"));
    source = new TreeMap<>(SeedData.upload(TestS3.client(S3EndpointConfig.withKeys(server.endpoint(), "us-east-1", IDENTITY, secret)),
        "src", SeedData.mix(12 * MIB + 1, 5)));
  }

  @AfterAll
  void stop() {
    if (server != null) server.close();
  }

  private static void keytool(Path dir, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(String.join(" ", command) + "\n" + out).isZero();
  }

  private record Run(int code, String out, String err) {}

  private Run ferry(String name, String hocon) throws Exception {
    Path conf = Jobs.file(work.resolve("conf"), name + ".conf", hocon);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Ferry.run(new String[] {"migrate", conf.toString(), "-Dferry.source.credentials.secret-access-key=" + secret},
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void anHttpsEndpointSignedByAPrivateCaIsRefusedUntilItsCaIsTrusted() throws Exception {
    Path destination = work.resolve("tls-out");
    String job = Jobs.hocon(server.secureEndpoint(), IDENTITY, "src", destination, work.resolve("reports"), "ferry.job.name = tls");
    Run refused = ferry("tls-refused", job);
    assertThat(refused.code()).as(refused.out() + refused.err()).isEqualTo(Ferry.JOB_FAILED);
    assertThat(refused.err()).contains("cannot list s3://src/ at " + server.secureEndpoint())
        .containsAnyOf("PKIX path building failed", "unable to find valid certification path").doesNotContain(secret);
    assertThat(Trees.digests(destination)).isEmpty();

    Run trusted = ferry("tls-trusted", job + "ferry.source.ca-bundle = \"" + caPem + "\"\n");
    assertThat(trusted.code()).as(trusted.out() + trusted.err()).isEqualTo(Ferry.OK);
    assertThat(Trees.digests(destination)).isEqualTo(source);
  }

  @Test
  void aCaBundleThatIsNotAFileIsAConfigurationErrorNamingTheKey() throws Exception {
    Run run = ferry("tls-missing", Jobs.hocon(server.secureEndpoint(), IDENTITY, "src", work.resolve("x"), work.resolve("reports"),
        "ferry.source.ca-bundle = \"" + work.resolve("no-such.pem") + "\"\n"));
    assertThat(run.code()).isEqualTo(Ferry.BAD_CONFIG);
    assertThat(run.err()).contains("ferry.source.ca-bundle = " + work.resolve("no-such.pem")).contains("is not a readable file");
  }

  /**
   * A run in a JVM of its own with Spark's UI and event log on, the secret given the way README says (an environment
   * variable) for the source and on the command line for the destination; the UI's pages are read while the copy
   * runs (slowed by a WAN emulator), then everything the run wrote is searched for either secret.
   */
  @Test
  void theSecretAppearsInNoOutputReportLedgerEventLogOrSparkUiPage() throws Exception {
    String destinationSecret = secret; // one server: the same key pair on both sides, passed two ways
    Path events = Files.createDirectories(work.resolve("events"));
    int uiPort;
    try (ServerSocket s = new ServerSocket(0)) {
      uiPort = s.getLocalPort();
    }
    TestS3.client(S3EndpointConfig.withKeys(server.endpoint(), "us-east-1", IDENTITY, secret)).createBucket(b -> b.bucket("copy"));
    try (WanEmulator slow = new WanEmulator(0, server.port(), 1, 0)) { // 1 MB/s a connection: the copy takes seconds
      Path conf = Jobs.file(work.resolve("conf"), "secrets.conf", Jobs.hocon("http://127.0.0.1:" + slow.port(), IDENTITY, "src",
          work.resolve("unused"), work.resolve("reports"), """
              ferry.job.name = secrets
              ferry.source.credentials.secret-access-key = ${?SRC_SECRET_ACCESS_KEY}
              ferry.plan.part-size = 5MiB
              ferry.destination { type = s3, endpoint = "%s", bucket = copy, credentials.access-key-id = "%s" }
              """.formatted(server.endpoint(), IDENTITY)));
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g"));
      for (String opt : System.getProperty("ferry.spark.jvm.opens", "").trim().split("\\s+")) if (!opt.isEmpty()) command.add(opt);
      command.addAll(List.of("-Dspark.ui.enabled=true", "-Dspark.ui.port=" + uiPort, "-Dspark.eventLog.enabled=true",
          "-Dspark.metrics.conf.*.sink.prometheusServlet.class=org.apache.spark.metrics.sink.PrometheusServlet",
          "-Dspark.metrics.conf.*.sink.prometheusServlet.path=/metrics/prometheus",
          "-Dspark.eventLog.dir=" + events.toUri(), "-cp", System.getProperty("java.class.path"), Ferry.class.getName(), "migrate",
          conf.toString(), "-Dferry.destination.credentials.secret-access-key=" + destinationSecret));
      Path log = work.resolve("secrets.log");
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      builder.environment().put("SRC_SECRET_ACCESS_KEY", secret);
      builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
      Process run = builder.start();
      StringBuilder pages = new StringBuilder();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (run.isAlive() && !(pages.indexOf("Spark Properties") >= 0 && pages.indexOf("COPY") >= 0) && System.nanoTime() < deadline) {
        pages.setLength(0);
        try {
          for (String page : List.of("/environment/", "/jobs/", "/stages/", "/executors/", "/api/v1/applications", "/metrics/prometheus")) {
            pages.append(get("http://127.0.0.1:" + uiPort + page));
          }
        } catch (IOException notYet) {
          // the UI is not up yet
        }
        Thread.sleep(200);
      }
      assertThat(run.waitFor(3, TimeUnit.MINUTES)).isTrue();
      String out = Files.readString(log);
      assertThat(run.exitValue()).as(out).isZero();
      assertThat(pages).as("the UI was read while the run went on").contains("Spark Properties").contains("COPY");
      assertThat(pages).doesNotContain(secret);
      // Ferry's metrics source, through a sink Spark already has: the listing's requests were counted before the copy
      assertThat(pages).containsPattern("FerryPlugin_requests_list_Value\\S* +[1-9]").contains("FerryPlugin_bytes_Value")
          .contains("FerryPlugin_range_ms_Count");
      assertThat(out).doesNotContain(secret);
      try (Stream<Path> files = Stream.concat(Files.walk(events), Files.walk(work.resolve("reports/secrets")))) {
        List<Path> written = files.filter(Files::isRegularFile).toList();
        assertThat(written).as("the event log, the datasets, the summary, the HTML page")
            .anySatisfy(p -> assertThat(p.toString()).contains("events"))
            .anySatisfy(p -> assertThat(p.getFileName().toString()).isEqualTo("report.html"));
        for (Path p : written) {
          assertThat(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1)).as(p.toString()).doesNotContain(secret);
        }
      }
    }
  }

  private static String get(String url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
    c.setConnectTimeout(1000);
    c.setReadTimeout(5000);
    try (var in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
