queue=${name}%{ for q in queues },${q}%{ endfor }
