package io.ferry.store.s3.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.config.Secret;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * IBM Cloud IAM bearer tokens for Cloud Object Storage: the API key is exchanged at the token URL
 * ({@code grant_type=urn:ibm:params:oauth:grant-type:apikey}); the token is cached and fetched again before it
 * expires (tokens live one hour; a new one is fetched once less than a sixth of its life, at most 10 minutes,
 * remains). Thread-safe. Neither the API key nor a token ever appears in a message.
 */
public final class IbmIamTokens {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final URI tokenUrl;
  private final Secret apiKey;
  private final Clock clock;
  private final HttpClient http;
  private String token;
  private Instant refreshAt = Instant.MIN;
  private int exchanges;

  public IbmIamTokens(String tokenUrl, Secret apiKey, Clock clock) {
    this.tokenUrl = URI.create(tokenUrl);
    this.apiKey = apiKey;
    this.clock = clock;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  }

  /** A valid bearer token, fetched or refreshed if needed. */
  public synchronized String token() {
    if (token == null || !clock.instant().isBefore(refreshAt)) {
      try {
        exchange();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UncheckedIOException(new InterruptedIOException("interrupted while fetching an IAM token"));
      }
    }
    return token;
  }

  /** How many times the API key was exchanged (for tests and diagnostics). */
  public synchronized int exchanges() {
    return exchanges;
  }

  private void exchange() throws IOException, InterruptedException {
    String form = "grant_type=" + URLEncoder.encode("urn:ibm:params:oauth:grant-type:apikey", StandardCharsets.UTF_8)
        + "&apikey=" + URLEncoder.encode(apiKey.reveal(), StandardCharsets.UTF_8);
    HttpRequest request = HttpRequest.newBuilder(tokenUrl)
        .timeout(Duration.ofSeconds(30))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Accept", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(form))
        .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      String detail = "";
      try {
        JsonNode error = JSON.readTree(response.body());
        detail = error.path("errorMessage").asText(error.path("errorCode").asText(""));
      } catch (IOException ignored) {
        // not JSON
      }
      throw new IOException("IBM IAM token request to " + tokenUrl + " failed with HTTP " + response.statusCode()
          + (detail.isEmpty() ? "" : ": " + detail) + " (check credentials.api-key and credentials.token-url)");
    }
    JsonNode body = JSON.readTree(response.body());
    String accessToken = body.path("access_token").asText("");
    if (accessToken.isEmpty()) throw new IOException("IBM IAM token response from " + tokenUrl + " has no access_token");
    long lifetime = body.path("expires_in").asLong(3600);
    Instant now = clock.instant();
    long margin = Math.min(600, lifetime / 6);
    token = accessToken;
    refreshAt = now.plusSeconds(Math.max(0, lifetime - margin));
    exchanges++;
  }
}
