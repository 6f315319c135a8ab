/**
 * Faults inside a Spring Boot application. {@code spring-chaos-monkey} drives Chaos Monkey for
 * Spring Boot through its actuator endpoint, with the JDK's HTTP client: nothing of Spring is on
 * this module's main classpath, only the real application its tests start.
 */
package dev.firedrill.spring;
