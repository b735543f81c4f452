package io.ferry.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Headless Chromium driven over the DevTools protocol (a WebSocket on loopback): opens a page, collects what its
 * console and the page's own errors say, evaluates expressions in it and takes screenshots. A real browser, so a
 * page's SVG is parsed, laid out and checked the way users' browsers do (a bad attribute is a console error).
 */
public final class Browser implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");

  private final Process process;
  private final WebSocket socket;
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final List<String> errors = new CopyOnWriteArrayList<>();
  private volatile CompletableFuture<Void> loaded = new CompletableFuture<>();
  private String session;

  /** The Chromium on the PATH, or null. */
  public static String executable() {
    for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
      for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
        if (Files.isExecutable(Path.of(dir, name))) return Path.of(dir, name).toString();
      }
    }
    return null;
  }

  public Browser(Path profile, int width, int height) throws Exception {
    process = new ProcessBuilder(executable(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--user-data-dir=" + profile,
        "--window-size=" + width + "," + height, "about:blank").redirectErrorStream(true).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String url = null;
    for (String line; url == null && (line = out.readLine()) != null; ) {
      Matcher m = LISTENING.matcher(line);
      if (m.find()) url = m.group(1);
    }
    if (url == null) throw new IOException("Chromium did not start its DevTools endpoint");
    Thread drain = new Thread(() -> out.lines().forEach(l -> {}), "chromium-output");
    drain.setDaemon(true);
    drain.start();
    socket = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(URI.create(url), new Listener()).get(30, TimeUnit.SECONDS);
    String target = call(null, "Target.createTarget", Map.of("url", "about:blank")).get("targetId").asText();
    session = call(null, "Target.attachToTarget", Map.of("targetId", target, "flatten", true)).get("sessionId").asText();
    for (String domain : List.of("Runtime.enable", "Log.enable", "Page.enable")) call(session, domain, Map.of());
  }

  /** Opens {@code page} and waits for its load event. */
  public void open(Path page) throws Exception {
    loaded = new CompletableFuture<>();
    call(session, "Page.navigate", Map.of("url", page.toUri().toString()));
    loaded.get(30, TimeUnit.SECONDS);
  }

  /** What the page's console and the page itself reported as errors so far. */
  public List<String> errors() {
    return new ArrayList<>(errors);
  }

  /** The value of a JavaScript expression in the page (returned by value: numbers, strings, arrays, objects). */
  public JsonNode evaluate(String expression) throws Exception {
    JsonNode result = call(session, "Runtime.evaluate", Map.of("expression", expression, "returnByValue", true));
    if (result.has("exceptionDetails")) throw new IllegalStateException("evaluating " + expression + ": " + result.get("exceptionDetails"));
    return result.at("/result/value");
  }

  /** Lays the page out for a window of this size (headless Chromium keeps its windows at least about 500 px wide). */
  public void viewport(int width, int height) throws Exception {
    call(session, "Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", height, "deviceScaleFactor", 1, "mobile", false));
  }

  /** A PNG of the whole page. */
  public void screenshot(Path png) throws Exception {
    JsonNode shot = call(session, "Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true));
    Files.write(png, Base64.getDecoder().decode(shot.get("data").asText()));
  }

  private JsonNode call(String sessionId, String method, Map<String, ?> params) throws Exception {
    int id = ids.incrementAndGet();
    ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
    message.set("params", JSON.valueToTree(params));
    if (sessionId != null) message.put("sessionId", sessionId);
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    pending.put(id, answer);
    socket.sendText(JSON.writeValueAsString(message), true).get(10, TimeUnit.SECONDS);
    JsonNode reply = answer.get(30, TimeUnit.SECONDS);
    if (reply.has("error")) throw new IllegalStateException(method + ": " + reply.get("error"));
    return reply.get("result");
  }

  private void received(JsonNode message) {
    if (message.has("id")) {
      CompletableFuture<JsonNode> answer = pending.remove(message.get("id").asInt());
      if (answer != null) answer.complete(message);
      return;
    }
    switch (message.path("method").asText()) {
      case "Page.loadEventFired" -> loaded.complete(null);
      case "Runtime.exceptionThrown" -> errors.add("exception: " + message.at("/params/exceptionDetails"));
      case "Runtime.consoleAPICalled" -> {
        String type = message.at("/params/type").asText();
        if (type.equals("error") || type.equals("assert")) errors.add("console." + type + ": " + message.at("/params/args"));
      }
      case "Log.entryAdded" -> {
        if (message.at("/params/entry/level").asText().equals("error")) errors.add("log: " + message.at("/params/entry/text").asText());
      }
      default -> {}
    }
  }

  private final class Listener implements WebSocket.Listener {
    private final StringBuilder text = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        try {
          received(JSON.readTree(text.toString()));
        } catch (IOException e) {
          errors.add("unreadable DevTools message: " + e.getMessage());
        }
        text.setLength(0);
      }
      webSocket.request(1);
      return null;
    }
  }

  @Override
  public void close() throws Exception {
    try {
      socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
    } catch (Exception ignored) {
      // the browser goes anyway
    }
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor();
  }
}
