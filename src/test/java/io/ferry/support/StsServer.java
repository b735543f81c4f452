package io.ferry.support;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local stand-in for AWS STS's AssumeRole (the Query protocol the SDK's own {@code sts} client speaks): issues
 * temporary keys "ASIATEMPN" with session token "session-token-N", lasting {@link #lasting} each, to callers signing
 * as the one access key id it accepts, and for AssumeRoleWithWebIdentity (unsigned) to callers presenting the one
 * token it accepts ({@link #webIdentityToken}). The SDK's clients do the rest, as against AWS.
 */
public final class StsServer implements AutoCloseable {
  public static final String SECRET_PREFIX = "temporary-secret-";
  private final HttpServer server;
  private final AtomicInteger issued = new AtomicInteger();
  private final List<Map<String, String>> forms = new CopyOnWriteArrayList<>();
  private volatile Duration lasting = Duration.ofHours(1);
  private volatile String webIdentityToken;

  public StsServer(String callerKeyId) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      Map<String, String> form = new LinkedHashMap<>();
      for (String pair : new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) form.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
      forms.add(form);
      String auth = exchange.getRequestHeaders().getFirst("Authorization");
      boolean web = "AssumeRoleWithWebIdentity".equals(form.get("Action"));
      boolean ok = web ? webIdentityToken != null && webIdentityToken.equals(form.get("WebIdentityToken"))
          : "AssumeRole".equals(form.get("Action")) && auth != null && auth.contains("Credential=" + callerKeyId + "/");
      int n = issued.incrementAndGet();
      String action = web ? "AssumeRoleWithWebIdentity" : "AssumeRole";
      String body = ok ? """
          <%5$sResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
            <%5$sResult>
              <Credentials>
                <AccessKeyId>ASIATEMP%1$d</AccessKeyId>
                <SecretAccessKey>%2$s%1$d</SecretAccessKey>
                <SessionToken>session-token-%1$d</SessionToken>
                <Expiration>%3$s</Expiration>
              </Credentials>
              <AssumedRoleUser>
                <AssumedRoleId>AROATEST:%4$s</AssumedRoleId>
                <Arn>arn:aws:sts::123456789012:assumed-role/test/%4$s</Arn>
              </AssumedRoleUser>
            </%5$sResult>
            <ResponseMetadata><RequestId>sts-%1$d</RequestId></ResponseMetadata>
          </%5$sResponse>
          """.formatted(n, SECRET_PREFIX, Instant.now().plus(lasting).truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
              form.get("RoleSessionName"), action)
          : """
          <ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
            <Error><Type>Sender</Type><Code>InvalidClientTokenId</Code><Message>The security token included in the request is
            invalid.</Message></Error><RequestId>sts-denied</RequestId>
          </ErrorResponse>
          """;
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "text/xml");
      exchange.sendResponseHeaders(ok ? 200 : 403, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    });
    server.start();
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Sets of temporary keys issued so far. */
  public int issued() {
    return issued.get();
  }

  /** The forms callers posted (Action, RoleArn, RoleSessionName, ExternalId, DurationSeconds, ...). */
  public List<Map<String, String>> forms() {
    return forms;
  }

  /** Accepts AssumeRoleWithWebIdentity from callers presenting {@code token} (a Kubernetes service account's, say). */
  public void webIdentityToken(String token) {
    webIdentityToken = token;
  }

  /** How long the keys issued from now on last. */
  public void lasting(Duration d) {
    lasting = d;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
