package io.ferry.support;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A local stand-in for IBM Cloud IAM's token endpoint: issues "token-N" for the one API key it accepts. */
public final class TokenServer implements AutoCloseable {
  private final HttpServer server;
  private final AtomicInteger issued = new AtomicInteger();
  private final List<String> forms = new CopyOnWriteArrayList<>();
  private volatile long expiresIn = 3600;

  public TokenServer(String apiKey) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/identity/token", exchange -> {
      String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      forms.add(form);
      boolean ok = exchange.getRequestMethod().equals("POST")
          && form.contains("grant_type=" + java.net.URLEncoder.encode("urn:ibm:params:oauth:grant-type:apikey", StandardCharsets.UTF_8))
          && URLDecoder.decode(form, StandardCharsets.UTF_8).contains("apikey=" + apiKey);
      String body = ok
          ? "{\"access_token\":\"token-" + issued.incrementAndGet() + "\",\"token_type\":\"Bearer\",\"expires_in\":" + expiresIn + "}"
          : "{\"errorCode\":\"BXNIM0415E\",\"errorMessage\":\"Provided API key could not be found.\"}";
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(ok ? 200 : 400, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    });
    server.start();
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/identity/token";
  }

  public int issued() {
    return issued.get();
  }

  public List<String> forms() {
    return forms;
  }

  public void expiresIn(long seconds) {
    this.expiresIn = seconds;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
