//! `baseline`: the standard health `Check`, a bare unary RPC of the same server, through the
//! same workers and connections as every scenario. Other scenarios report their throughput and
//! latency as ratios to it. With several targets, each worker sends its checks to the targets
//! in turn, starting from its own number, so that every target gets its share.

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
    let targets = context.connections.targets();
    let mut health: Vec<_> = (0..targets)
        .map(|target| context.connections.to(target).health.clone())
        .collect();
    let mut turn = context.index;
    while !recorder.should_stop() {
        let health = &mut health[turn % targets];
        turn = turn.wrapping_add(1);
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
