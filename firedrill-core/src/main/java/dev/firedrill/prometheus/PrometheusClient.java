package dev.firedrill.prometheus;

/** The part of Prometheus's HTTP API that the drill needs. */
public interface PrometheusClient {

  /**
   * An instant query at the server's current time.
   *
   * @throws PrometheusException with one line naming the query and what went wrong (Prometheus's
   *     own error message, a status code, a timeout, a refused connection)
   */
  QueryResult query(String promql) throws PrometheusException;
}
