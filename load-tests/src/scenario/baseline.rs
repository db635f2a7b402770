//! `baseline`: the standard health `Check`, a bare unary RPC of the same server, through the
//! same workers and connections as every scenario. Other scenarios report their throughput and
//! latency as ratios to it.

use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;

use super::pause_after_error;
use crate::clock::StopSignal;
use crate::connect::Connections;
use crate::errors::ClientFault;
use crate::phase::{PhaseResult, PhaseSpec, WorkerContext, run_phase};
use crate::recorder::{Method, Recorder};

/// Runs the baseline phase.
pub(crate) async fn run(
    spec: &PhaseSpec,
    connections: &Connections,
    stop: &StopSignal,
) -> PhaseResult {
    run_phase(
        spec,
        connections,
        stop,
        |context, recorder| async move { (context, (), recorder) },
        |context, (), recorder| check_until_stopped(context, recorder),
    )
    .await
}

/// Sends health checks, one at a time, until the phase ends.
async fn check_until_stopped(context: WorkerContext, mut recorder: Recorder) -> Recorder {
    let mut health = context.connection.health.clone();
    while !recorder.should_stop() {
        let request = HealthCheckRequest {
            service: String::new(),
        };
        match recorder.raw(Method::Check, health.check(request)).await {
            Some(response) if response.get_ref().status == ServingStatus::Serving as i32 => {}
            Some(_) => {
                recorder.fault(ClientFault::NotServing);
                pause_after_error().await;
            }
            None => pause_after_error().await,
        }
    }
    recorder
}
